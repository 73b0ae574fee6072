/*
 * OnAir's fault-injecting ALSA capture PCM (issue 26, docs/devices.md): an external I/O plugin (ioplug)
 * that captures a 440 Hz tone in real time and fails on command the way sound devices fail, so the tests
 * drive the real `ALSACapture` (snd_pcm_readi, snd_pcm_recover, reopen) without a sound card or kernel
 * module. Built by the tests with `gcc -shared -fPIC … -lasound` and loaded from the configuration they
 * write:
 *
 *     pcm_type.onairfault { lib "/tmp/…/libasound_module_pcm_onairfault.so" }
 *     pcm.fault { type onairfault control "/tmp/…/control" }
 *
 * The control file holds one word, read whenever it changes (its mtime and size):
 *     ok        capture normally (a device plugged in again)
 *     xrun N    the next pointer update reports an overrun: snd_pcm_readi returns -EPIPE (once per N)
 *     suspend N the PCM is suspended (system sleep): snd_pcm_readi returns -ESTRPIPE, and resume works
 *     unplug    the device is gone: the open PCM is disconnected (-ENODEV) and every open fails with
 *               -ENODEV until the file says `ok` again
 */
/* A shared object: without PIC, alsa's SND_PCM_PLUGIN_SYMBOL refers to snd_dlsym_start, which only
 * static builds of alsa-lib have, and dlopen fails with "undefined symbol". */
#ifndef PIC
#define PIC
#endif
#include <alsa/asoundlib.h>
#include <alsa/pcm_external.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    snd_pcm_ioplug_t io;
    char control[512];
    struct timespec seen_mtime;
    off_t seen_size;
    char word[64];
    int pending_xrun;
    int pending_suspend;
    int timer;
    uint64_t start_ns;
    uint64_t frames_at_start;
    double phase;
} fault_t;

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Reads the control word when the file changed; arms a one-shot fault for a new xrun/suspend line. */
static void read_control(const char *path, struct timespec *seen_mtime, off_t *seen_size, char *word, size_t size,
                         int *xrun, int *suspend) {
    struct stat st;
    if (stat(path, &st) != 0) return;
    if (st.st_mtim.tv_sec == seen_mtime->tv_sec && st.st_mtim.tv_nsec == seen_mtime->tv_nsec && st.st_size == *seen_size) return;
    *seen_mtime = st.st_mtim;
    *seen_size = st.st_size;
    FILE *file = fopen(path, "r");
    if (!file) return;
    char line[64] = {0};
    if (!fgets(line, sizeof line, file)) line[0] = 0;
    fclose(file);
    line[strcspn(line, "\r\n")] = 0;
    if (strcmp(line, word) == 0) return;
    snprintf(word, size, "%s", line);
    if (xrun && strncmp(word, "xrun", 4) == 0) *xrun = 1;
    if (suspend && strncmp(word, "suspend", 7) == 0) *suspend = 1;
}

static int unplugged(fault_t *f) { return strncmp(f->word, "unplug", 6) == 0; }

static snd_pcm_uframes_t elapsed_frames(fault_t *f) {
    return (snd_pcm_uframes_t)((now_ns() - f->start_ns) * f->io.rate / 1000000000ull);
}

static int fault_start(snd_pcm_ioplug_t *io) {
    fault_t *f = io->private_data;
    f->start_ns = now_ns();
    uint64_t period_ns = (uint64_t)io->period_size * 1000000000ull / io->rate;
    struct itimerspec spec = {
        .it_interval = {(time_t)(period_ns / 1000000000ull), (long)(period_ns % 1000000000ull)},
        .it_value = {(time_t)(period_ns / 1000000000ull), (long)(period_ns % 1000000000ull)},
    };
    return timerfd_settime(f->timer, 0, &spec, NULL) == 0 ? 0 : -errno;
}

static int fault_stop(snd_pcm_ioplug_t *io) {
    fault_t *f = io->private_data;
    struct itimerspec off = {{0, 0}, {0, 0}};
    timerfd_settime(f->timer, 0, &off, NULL);
    return 0;
}

/* The hardware position, and the faults: ioplug turns any negative position into an overrun (-EPIPE), so a
 * suspend and an unplug set the PCM's state instead and report the position, as a driver's interrupt
 * would; the application's next read then returns -ESTRPIPE or -ENODEV. */
static snd_pcm_sframes_t fault_pointer(snd_pcm_ioplug_t *io) {
    fault_t *f = io->private_data;
    read_control(f->control, &f->seen_mtime, &f->seen_size, f->word, sizeof f->word, &f->pending_xrun, &f->pending_suspend);
    snd_pcm_sframes_t position = (snd_pcm_sframes_t)(elapsed_frames(f) % io->buffer_size);
    if (unplugged(f)) {
        snd_pcm_ioplug_set_state(io, SND_PCM_STATE_DISCONNECTED);
        return position;
    }
    if (f->pending_suspend) {
        f->pending_suspend = 0;
        snd_pcm_ioplug_set_state(io, SND_PCM_STATE_SUSPENDED);
        return position;
    }
    if (f->pending_xrun) {
        f->pending_xrun = 0;
        return -EPIPE;
    }
    return position;
}

/* The tone: 440 Hz at a quarter of full scale, continuous across calls. */
static snd_pcm_sframes_t fault_transfer(snd_pcm_ioplug_t *io, const snd_pcm_channel_area_t *areas,
                                        snd_pcm_uframes_t offset, snd_pcm_uframes_t size) {
    fault_t *f = io->private_data;
    const double step = 2.0 * M_PI * 440.0 / io->rate;
    for (snd_pcm_uframes_t n = 0; n < size; n++) {
        int16_t value = (int16_t)lrint(8191.0 * sin(f->phase));
        f->phase = fmod(f->phase + step, 2.0 * M_PI);
        for (unsigned int channel = 0; channel < io->channels; channel++) {
            const snd_pcm_channel_area_t *area = &areas[channel];
            char *base = (char *)area->addr + (area->first + area->step * (offset + n)) / 8;
            *(int16_t *)base = value;
        }
    }
    return (snd_pcm_sframes_t)size;
}

static int fault_prepare(snd_pcm_ioplug_t *io) {
    fault_t *f = io->private_data;
    f->start_ns = now_ns();
    return unplugged(f) ? -ENODEV : 0;
}

/* Waking from a suspend: ioplug leaves the state to the plugin; PREPARED lets the next read start again. */
static int fault_resume(snd_pcm_ioplug_t *io) {
    fault_t *f = io->private_data;
    if (unplugged(f)) return -ENODEV;
    return snd_pcm_ioplug_set_state(io, SND_PCM_STATE_PREPARED);
}

static int fault_poll_revents(snd_pcm_ioplug_t *io, struct pollfd *pfd, unsigned int nfds, unsigned short *revents) {
    fault_t *f = io->private_data;
    uint64_t expirations;
    if (nfds == 1 && (pfd[0].revents & POLLIN)) (void)!read(f->timer, &expirations, sizeof expirations);
    *revents = (pfd[0].revents & POLLIN) ? POLLIN : 0;
    return 0;
}

static int fault_close(snd_pcm_ioplug_t *io) {
    fault_t *f = io->private_data;
    close(f->timer);
    free(f);
    return 0;
}

static const snd_pcm_ioplug_callback_t fault_callback = {
    .start = fault_start,
    .stop = fault_stop,
    .pointer = fault_pointer,
    .transfer = fault_transfer,
    .prepare = fault_prepare,
    .resume = fault_resume,
    .poll_revents = fault_poll_revents,
    .close = fault_close,
};

SND_PCM_PLUGIN_DEFINE_FUNC(onairfault) {
    (void)root;
    const char *control = NULL;
    snd_config_iterator_t i, next;
    snd_config_for_each(i, next, conf) {
        snd_config_t *node = snd_config_iterator_entry(i);
        const char *id;
        if (snd_config_get_id(node, &id) < 0) continue;
        if (strcmp(id, "comment") == 0 || strcmp(id, "type") == 0 || strcmp(id, "hint") == 0) continue;
        if (strcmp(id, "control") == 0) {
            if (snd_config_get_string(node, &control) < 0) return -EINVAL;
            continue;
        }
        SNDERR("onairfault: unknown field %s", id);
        return -EINVAL;
    }
    if (!control || stream != SND_PCM_STREAM_CAPTURE) return -EINVAL;
    fault_t *f = calloc(1, sizeof *f);
    if (!f) return -ENOMEM;
    snprintf(f->control, sizeof f->control, "%s", control);
    snprintf(f->word, sizeof f->word, "ok");
    read_control(f->control, &f->seen_mtime, &f->seen_size, f->word, sizeof f->word, NULL, NULL);
    if (unplugged(f)) {
        free(f);
        return -ENODEV;
    }
    f->timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (f->timer < 0) {
        int error = -errno;
        free(f);
        return error;
    }
    f->io.version = SND_PCM_IOPLUG_VERSION;
    f->io.name = "OnAir fault-injecting capture";
    f->io.callback = &fault_callback;
    f->io.private_data = f;
    f->io.poll_fd = f->timer;
    f->io.poll_events = POLLIN;
    f->io.mmap_rw = 0;
    int error = snd_pcm_ioplug_create(&f->io, name, stream, mode);
    if (error < 0) {
        close(f->timer);
        free(f);
        return error;
    }
    static const unsigned int accesses[] = {SND_PCM_ACCESS_RW_INTERLEAVED};
    static const unsigned int formats[] = {SND_PCM_FORMAT_S16_LE};
    if ((error = snd_pcm_ioplug_set_param_list(&f->io, SND_PCM_IOPLUG_HW_ACCESS, 1, accesses)) < 0 ||
        (error = snd_pcm_ioplug_set_param_list(&f->io, SND_PCM_IOPLUG_HW_FORMAT, 1, formats)) < 0 ||
        (error = snd_pcm_ioplug_set_param_minmax(&f->io, SND_PCM_IOPLUG_HW_CHANNELS, 1, 2)) < 0 ||
        (error = snd_pcm_ioplug_set_param_minmax(&f->io, SND_PCM_IOPLUG_HW_RATE, 8000, 96000)) < 0 ||
        (error = snd_pcm_ioplug_set_param_minmax(&f->io, SND_PCM_IOPLUG_HW_PERIOD_BYTES, 256, 65536)) < 0 ||
        (error = snd_pcm_ioplug_set_param_minmax(&f->io, SND_PCM_IOPLUG_HW_PERIODS, 2, 64)) < 0) {
        snd_pcm_ioplug_delete(&f->io);
        return error;
    }
    *pcmp = f->io.pcm;
    return 0;
}

SND_PCM_PLUGIN_SYMBOL(onairfault);
