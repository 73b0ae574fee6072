// SIGBUS guard for mapped file ranges; see include/mapped_file_guard.h for what and why.
//
// The handler runs on whichever thread touched the lost page, at any point of its work, so it only reads
// atomics and makes system calls (mmap, sigaction), which are async-signal-safe. A slot is published by
// storing its end before its start (release), and read start-then-end (acquire), so the handler never sees
// a start without its end. A slot is unregistered by its owner only after the owner has stopped touching
// the range, so a handler running for a fault inside the range always finds its slot.

#define _GNU_SOURCE
#include "mapped_file_guard.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { slot_count = 64 };

struct guarded_range {
    atomic_int taken;
    atomic_uintptr_t start; // 0: not guarding
    atomic_uintptr_t end;
    atomic_int damaged;
};

static struct guarded_range ranges[slot_count];
static struct sigaction previous_action;
static uintptr_t page_size;
static int installed; // written once under `once`, read after it
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void pass_on(int signal_number, siginfo_t *info, void *context) {
    if (previous_action.sa_flags & SA_SIGINFO) {
        if (previous_action.sa_sigaction != NULL) {
            previous_action.sa_sigaction(signal_number, info, context);
            return;
        }
    } else if (previous_action.sa_handler != SIG_DFL && previous_action.sa_handler != SIG_IGN) {
        previous_action.sa_handler(signal_number);
        return;
    }
    // No handler before ours: restore the default action; returning re-runs the faulting access, and the
    // process ends with SIGBUS exactly as it would have without the guard.
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(signal_number, &fallback, NULL);
}

static void on_bus_error(int signal_number, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int index = 0; index < slot_count; index++) {
        uintptr_t start = atomic_load_explicit(&ranges[index].start, memory_order_acquire);
        if (start == 0 || address < start) continue;
        uintptr_t end = atomic_load_explicit(&ranges[index].end, memory_order_relaxed);
        if (address >= end) continue;
        void *page = (void *)(address & ~(page_size - 1));
        void *zeros = mmap(page, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (zeros == MAP_FAILED) break;
        atomic_store_explicit(&ranges[index].damaged, 1, memory_order_release);
        return;
    }
    pass_on(signal_number, info, context);
}

static void install(void) {
    long size = sysconf(_SC_PAGESIZE);
    if (size <= 0) return;
    page_size = (uintptr_t)size;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_bus_error;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGBUS, &action, &previous_action) == 0) installed = 1;
}

int onair_mapped_guard_register(const void *start, size_t length) {
    pthread_once(&once, install);
    uintptr_t first = (uintptr_t)start;
    if (!installed || first == 0 || length == 0 || first + length < first) return -1;
    for (int index = 0; index < slot_count; index++) {
        int expected = 0;
        if (!atomic_compare_exchange_strong(&ranges[index].taken, &expected, 1)) continue;
        atomic_store_explicit(&ranges[index].damaged, 0, memory_order_relaxed);
        atomic_store_explicit(&ranges[index].end, first + length, memory_order_relaxed);
        atomic_store_explicit(&ranges[index].start, first, memory_order_release);
        return index;
    }
    return -1;
}

int onair_mapped_guard_damaged(int slot) {
    if (slot < 0 || slot >= slot_count) return 0;
    return atomic_load_explicit(&ranges[slot].damaged, memory_order_acquire);
}

void onair_mapped_guard_unregister(int slot) {
    if (slot < 0 || slot >= slot_count) return;
    atomic_store_explicit(&ranges[slot].start, 0, memory_order_release);
    atomic_store_explicit(&ranges[slot].end, 0, memory_order_relaxed);
    atomic_store_explicit(&ranges[slot].taken, 0, memory_order_release);
}

int onair_mapped_guard_capacity(void) { return slot_count; }
