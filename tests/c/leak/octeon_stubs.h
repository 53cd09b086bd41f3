/* A header of stand-ins for what another configuration does (the kernel's compile-test stubs of
 * hardware pools, drivers/staging/octeon/octeon-stubs.h): an empty body that takes a pointer. */
static inline void fpa_free(void *ptr, int pool) { }
