// A callee whose summary has too many changes to list (more than a summary names) changed
// what its arguments reach through their pointers too: the vector it shifts down, behind the
// struct it was given. The caller's next read of the slot is the shifted one, never the map
// the callee freed.
#include <stdlib.h>

struct vec { int n; void **slot; };
struct vectors { struct vec *maps; };
struct map { char *alias; int busy; };
struct counters { int f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16,
    f17, f18, f19, f20, f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34,
    f35, f36, f37, f38, f39, f40, f41, f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52,
    f53, f54, f55, f56, f57, f58, f59, f60, f61, f62, f63, f64, f65, f66, f67, f68, f69, f70,
    f71, f72, f73, f74, f75, f76, f77, f78, f79, f80, f81, f82, f83, f84, f85, f86, f87, f88,
    f89, f90, f91, f92, f93, f94, f95, f96, f97, f98, f99, f100, f101, f102, f103, f104, f105,
    f106, f107, f108, f109, f110, f111, f112, f113, f114, f115, f116, f117, f118, f119, f120,
    f121, f122, f123, f124, f125, f126, f127, f128, f129, f130, f131, f132, f133, f134, f135,
    f136, f137, f138, f139; };
struct counters stats;
#define B(n) stats.f##n++;

static int find_slot(struct vec *v, void *p) {
    for (int i = 0; i < v->n; i++)
        if (v->slot[i] == p)
            return i;
    return -1;
}

static void del_slot(struct vec *v, int i) {
    for (int j = i; j + 1 < v->n; j++)
        v->slot[j] = v->slot[j + 1];
    v->n--;
}

static int setup(struct vectors *vecs, struct map *m) {
    if (m->busy)
        return 0;
    B(0) B(1) B(2) B(3) B(4) B(5) B(6) B(7) B(8) B(9) B(10) B(11)
    B(12) B(13) B(14) B(15) B(16) B(17) B(18) B(19) B(20) B(21) B(22) B(23)
    B(24) B(25) B(26) B(27) B(28) B(29) B(30) B(31) B(32) B(33) B(34) B(35)
    B(36) B(37) B(38) B(39) B(40) B(41) B(42) B(43) B(44) B(45) B(46) B(47)
    B(48) B(49) B(50) B(51) B(52) B(53) B(54) B(55) B(56) B(57) B(58) B(59)
    B(60) B(61) B(62) B(63) B(64) B(65) B(66) B(67) B(68) B(69) B(70) B(71)
    B(72) B(73) B(74) B(75) B(76) B(77) B(78) B(79) B(80) B(81) B(82) B(83)
    B(84) B(85) B(86) B(87) B(88) B(89) B(90) B(91) B(92) B(93) B(94) B(95)
    B(96) B(97) B(98) B(99) B(100) B(101) B(102) B(103) B(104) B(105) B(106) B(107)
    B(108) B(109) B(110) B(111) B(112) B(113) B(114) B(115) B(116) B(117) B(118) B(119)
    B(120) B(121) B(122) B(123) B(124) B(125) B(126) B(127) B(128) B(129) B(130) B(131)
    B(132) B(133) B(134) B(135) B(136) B(137) B(138) B(139)
    int i = find_slot(vecs->maps, m);
    if (i >= 0)
        del_slot(vecs->maps, i);
    free(m->alias);
    free(m);
    return 1;
}

void ok_coalesce(struct vectors *vecs) {
    struct vec *v = vecs->maps;
    for (int i = 0; i < v->n; i++) {
        struct map *m = v->slot[i];
        if (setup(vecs, m)) {
            i--;
            continue;
        }
        m->busy = 2;
    }
}

void bad_kept(struct vectors *vecs) {
    struct map *m = vecs->maps->slot[0];
    if (setup(vecs, m))
        m->busy = 1;   // expect: memory.use-after-free
}
