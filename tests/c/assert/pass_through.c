/* Callee effects on memory the caller never reads still go into its own summary: `mid` reads
   nothing below x, yet `top` must learn that mid (through set) changes x->g->flag. */
#include <assert.h>
struct g { int flag; int other; };
struct s { struct g *g; };

void set(struct s *x) { x->g->flag = 1; }

void mid(struct s *x) { set(x); }

/* Reads after the call see the change. */
void read_after(struct s *x) {
    set(x);
    assert(x->g->flag == 1);   // expect: assert.violation
}

/* The effect passes through mid's summary. */
void top(struct s *x) {
    int before = x->g->flag;
    mid(x);
    assert(x->g->flag == before);   // expect: assert.violation
}

/* What the callee does not change stays. */
void top_other(struct s *x) {
    int before = x->g->other;
    mid(x);
    assert(x->g->other == before);
}

/* mid2 overwrites x->g after the call without reading it: the old target's change still
   belongs in its summary. */
void mid2(struct s *x, struct g *fresh) { set(x); x->g = fresh; }

void top2(struct s *x, struct g *o) {
    struct g *old = x->g;
    int before = old->flag;
    mid2(x, o);
    assert(old->flag == before);   // expect: assert.violation
}
