// pthread_cleanup_push installs a handler (an unlock) that runs when the thread is cancelled
// inside, or at pthread_cleanup_pop(1). glibc's macros branch on a setjmp: its second return
// comes only from a cancellation, with the state there, so the handler's branch at the push
// is no path of the function.
#include <pthread.h>

static pthread_mutex_t config_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t config_cond = PTHREAD_COND_INITIALIZER;
static int running_state;

static void config_cleanup(void *arg) {
    (void)arg;
    pthread_mutex_unlock(&config_lock);
}

int ok_wait_state(int state) {
    int st;
    pthread_cleanup_push(config_cleanup, NULL);
    pthread_mutex_lock(&config_lock);
    while (running_state != state)
        pthread_cond_wait(&config_cond, &config_lock);
    st = running_state;
    pthread_cleanup_pop(1);
    return st;
}

int bad_wait_state(int state) {
    int st;
    pthread_cleanup_push(config_cleanup, NULL);
    pthread_mutex_lock(&config_lock);
    st = running_state == state;
    pthread_mutex_unlock(&config_lock);
    pthread_cleanup_pop(1);   // expect: lock.double-unlock
    return st;
}
