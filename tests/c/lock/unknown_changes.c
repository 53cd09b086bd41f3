/* NOTE [lock-paths]: a callee whose changes are too many to list (here seventy registers)
 * changes, to its callers, whatever they read before the call; but not the pointers through
 * which the caller reached a lock it holds: the unlock after the call releases the lock the
 * lock before it took (the kernel's rtl92e_rtllib_ips_leave around rtl92e_ips_leave). */
#include <pthread.h>

struct regs { int f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59, f60, f61, f62, f63, f64, f65, f66, f67, f68, f69; };
struct ieee { pthread_mutex_t ips_mutex; struct regs *regs; int state; };
struct priv { struct ieee *ieee; int up; };
struct dev { struct priv *priv; };

void write_registers(struct dev *d, int v)
{
    struct regs *r = d->priv->ieee->regs;
    r->f0 = v + 0;
    r->f1 = v + 1;
    r->f2 = v + 2;
    r->f3 = v + 3;
    r->f4 = v + 4;
    r->f5 = v + 5;
    r->f6 = v + 6;
    r->f7 = v + 7;
    r->f8 = v + 8;
    r->f9 = v + 9;
    r->f10 = v + 10;
    r->f11 = v + 11;
    r->f12 = v + 12;
    r->f13 = v + 13;
    r->f14 = v + 14;
    r->f15 = v + 15;
    r->f16 = v + 16;
    r->f17 = v + 17;
    r->f18 = v + 18;
    r->f19 = v + 19;
    r->f20 = v + 20;
    r->f21 = v + 21;
    r->f22 = v + 22;
    r->f23 = v + 23;
    r->f24 = v + 24;
    r->f25 = v + 25;
    r->f26 = v + 26;
    r->f27 = v + 27;
    r->f28 = v + 28;
    r->f29 = v + 29;
    r->f30 = v + 30;
    r->f31 = v + 31;
    r->f32 = v + 32;
    r->f33 = v + 33;
    r->f34 = v + 34;
    r->f35 = v + 35;
    r->f36 = v + 36;
    r->f37 = v + 37;
    r->f38 = v + 38;
    r->f39 = v + 39;
    r->f40 = v + 40;
    r->f41 = v + 41;
    r->f42 = v + 42;
    r->f43 = v + 43;
    r->f44 = v + 44;
    r->f45 = v + 45;
    r->f46 = v + 46;
    r->f47 = v + 47;
    r->f48 = v + 48;
    r->f49 = v + 49;
    r->f50 = v + 50;
    r->f51 = v + 51;
    r->f52 = v + 52;
    r->f53 = v + 53;
    r->f54 = v + 54;
    r->f55 = v + 55;
    r->f56 = v + 56;
    r->f57 = v + 57;
    r->f58 = v + 58;
    r->f59 = v + 59;
    r->f60 = v + 60;
    r->f61 = v + 61;
    r->f62 = v + 62;
    r->f63 = v + 63;
    r->f64 = v + 64;
    r->f65 = v + 65;
    r->f66 = v + 66;
    r->f67 = v + 67;
    r->f68 = v + 68;
    r->f69 = v + 69;
}

void ok_ips_leave(struct dev *d)
{
    pthread_mutex_lock(&d->priv->ieee->ips_mutex);
    write_registers(d, 1);
    pthread_mutex_unlock(&d->priv->ieee->ips_mutex);
}

int ok_down(struct dev *d)
{
    if (d->priv->up == 0)
        return -1;
    ok_ips_leave(d);
    d->priv->up = 0;
    return 0;
}

void bad_twice(struct dev *d)
{
    pthread_mutex_lock(&d->priv->ieee->ips_mutex);
    write_registers(d, 2);
    pthread_mutex_lock(&d->priv->ieee->ips_mutex);     // expect: lock.double-lock
    pthread_mutex_unlock(&d->priv->ieee->ips_mutex);
}
