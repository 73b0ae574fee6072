// Runs CMappedFileGuard in a process of its own, where a SIGBUS may end the process (MappedClipTests builds
// and runs it): a guarded range that loses its pages reads zeros and is marked damaged; a fault outside every
// guarded range goes to the handler installed before the guard ("chain": exit 42) or, with none, ends the
// process with SIGBUS as it would have without the guard.
#define _GNU_SOURCE
#include "mapped_file_guard.h"
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { pages = 3 };

static void previous_handler(int signal_number, siginfo_t *info, void *context) {
    (void)signal_number; (void)info; (void)context;
    _exit(42);
}

/// Maps `pages` pages of a new file at `path`, then cuts the file to 100 bytes under the mapping.
static volatile const char *map_then_truncate(const char *path, long page) {
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || ftruncate(fd, pages * page) != 0) return NULL;
    void *mapped = mmap(NULL, pages * page, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
    if (mapped == MAP_FAILED || ftruncate(fd, 100) != 0) return NULL;
    close(fd);
    return mapped;
}

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    long page = sysconf(_SC_PAGESIZE);
    if (strcmp(argv[2], "chain") == 0) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = previous_handler;
        action.sa_flags = SA_SIGINFO;
        if (sigaction(SIGBUS, &action, NULL) != 0) return 3;
    }
    char guarded_path[4096], bare_path[4096];
    snprintf(guarded_path, sizeof guarded_path, "%s/guarded", argv[1]);
    snprintf(bare_path, sizeof bare_path, "%s/bare", argv[1]);
    volatile const char *guarded = map_then_truncate(guarded_path, page);
    volatile const char *bare = map_then_truncate(bare_path, page);
    if (guarded == NULL || bare == NULL) return 4;
    int slot = onair_mapped_guard_register((const void *)guarded, (size_t)(pages * page));
    if (slot < 0) return 5;
    long nonzero = 0;
    for (long index = 0; index < pages * page; index++) nonzero += guarded[index] != 0;
    printf("guarded nonzero %ld damaged %d\n", nonzero, onair_mapped_guard_damaged(slot));
    fflush(stdout);
    (void)bare[2 * page]; // outside every guarded range
    printf("unguarded page read without a fault\n");
    return 0;
}
