/*
 * OnAir's emulated V4L2 camera (issue 26, docs/devices.md): an LD_PRELOAD shim over open/open64, ioctl,
 * mmap/mmap64, poll and close that answers for one device path the way a UVC camera's driver does, so
 * `V4L2Camera`'s real ioctl/mmap/poll path runs on a machine with no /dev/video, no kernel modules and no
 * CUSE. Every other path and descriptor goes to libc untouched. Built by the tests with
 * `gcc -shared -fPIC … -ldl` and started as `LD_PRELOAD=… onair …`.
 *
 * Environment: ONAIR_FAKE_V4L2_DEVICE (the path it answers for), ONAIR_FAKE_V4L2_CONTROL (a file holding
 * one word, read at every open, poll and VIDIOC_DQBUF):
 *     ok        a camera offering YUYV at the size asked for, frames at the rate asked for
 *     enodev    unplugged: VIDIOC_DQBUF fails with ENODEV and open fails with ENOENT
 *     stall     plugged in but silent: poll times out (the driver delivers nothing)
 *     reformat  plugged back as another camera: it offers only YU12 and grants 640x360 whatever is asked
 *   and a driver that breaks the API in what VIDIOC_DQBUF writes (V4L2DequeuedBuffer):
 *     damaged   every buffer flagged V4L2_BUF_FLAG_ERROR      damaged-half  every odd sequence number so
 *     empty     bytesused 0                                     overlong      bytesused one past the buffer
 *     badindex  the index one past the buffers mapped
 *   and one that breaks it in what VIDIOC_S_FMT grants (CameraFrameConverter):
 *     shortlines  the stream ends as unplugged; reopened, the camera reports YUYV lines of half a row
 *
 * What it does not reach: the kernel's own V4L2 code (vb2 buffer states, USB bandwidth, real timestamps
 * of a sensor); select(2) (V4L2Camera uses poll); more than one open of the device at a time.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MAX_BUFFERS 8

static struct {
    int fd;
    int streaming;
    uint32_t width, height, pixelformat, sizeimage, bytesperline;
    uint32_t fps_num, fps_den;
    unsigned count;
    void *memory[MAX_BUFFERS];
    int queued[MAX_BUFFERS];
    uint32_t sequence;
    uint64_t next_due_ns;
} cam = {.fd = -1};

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void control_word(char *word, size_t size) {
    snprintf(word, size, "ok");
    const char *path = getenv("ONAIR_FAKE_V4L2_CONTROL");
    if (!path) return;
    FILE *file = fopen(path, "r");
    if (!file) return;
    if (!fgets(word, (int)size, file)) snprintf(word, size, "ok");
    fclose(file);
    word[strcspn(word, "\r\n ")] = 0;
}

static int is_mode(const char *mode) {
    char word[32];
    control_word(word, sizeof word);
    return strcmp(word, mode) == 0;
}

static int is_device(const char *path) {
    const char *device = getenv("ONAIR_FAKE_V4L2_DEVICE");
    return path && device && strcmp(path, device) == 0;
}

/* The running stream is gone: unplugged, or about to come back as a camera with a broken format. */
static int stream_unplugged(void) {
    return is_mode("enodev") || is_mode("shortlines");
}

static int real_open(const char *path, int flags, mode_t mode) {
    static int (*next)(const char *, int, ...);
    if (!next) next = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
    return next(path, flags, mode);
}

static int open_device(int flags) {
    if (is_mode("enodev")) {
        errno = ENOENT;
        return -1;
    }
    if (cam.fd >= 0) {
        errno = EBUSY;
        return -1;
    }
    int fd = eventfd(0, (flags & O_CLOEXEC) ? EFD_CLOEXEC : 0);
    if (fd < 0) return -1;
    memset(&cam, 0, sizeof cam);
    cam.fd = fd;
    cam.fps_num = 1;
    cam.fps_den = 30;
    return fd;
}

int open(const char *path, int flags, ...) {
    mode_t mode = 0;
    if (flags & O_CREAT) {
        va_list args;
        va_start(args, flags);
        mode = (mode_t)va_arg(args, int);
        va_end(args);
    }
    if (is_device(path)) return open_device(flags);
    return real_open(path, flags, mode);
}

int open64(const char *path, int flags, ...) {
    mode_t mode = 0;
    if (flags & O_CREAT) {
        va_list args;
        va_start(args, flags);
        mode = (mode_t)va_arg(args, int);
        va_end(args);
    }
    if (is_device(path)) return open_device(flags);
    static int (*next)(const char *, int, ...);
    if (!next) next = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open64");
    return next(path, flags, mode);
}

static void release_buffers(void) {
    for (unsigned i = 0; i < cam.count; i++) {
        if (cam.memory[i]) munmap(cam.memory[i], cam.sizeimage);
        cam.memory[i] = NULL;
    }
    cam.count = 0;
}

int close(int fd) {
    static int (*next)(int);
    if (!next) next = (int (*)(int))dlsym(RTLD_NEXT, "close");
    if (fd >= 0 && fd == cam.fd) {
        release_buffers();
        cam.fd = -1;
        cam.streaming = 0;
    }
    return next(fd);
}

/* A picture that changes every frame: luma ramps shifted by the sequence number. */
static void fill(void *memory, uint32_t sequence) {
    uint8_t *bytes = memory;
    if (cam.pixelformat == V4L2_PIX_FMT_YUYV) {
        for (uint32_t y = 0; y < cam.height; y++) {
            uint8_t *row = bytes + y * cam.bytesperline;
            for (uint32_t x = 0; x < cam.width; x += 2) {
                row[x * 2] = (uint8_t)(16 + ((x + sequence * 4) % 200));
                row[x * 2 + 1] = 128;
                row[x * 2 + 2] = (uint8_t)(16 + ((x + 1 + sequence * 4) % 200));
                row[x * 2 + 3] = 128;
            }
        }
    } else {
        uint32_t luma = cam.width * cam.height;
        for (uint32_t i = 0; i < luma; i++) bytes[i] = (uint8_t)(16 + ((i % cam.width + sequence * 4) % 200));
        memset(bytes + luma, 128, cam.sizeimage - luma);
    }
}

static void set_format(struct v4l2_pix_format *pix) {
    if (is_mode("reformat")) {
        pix->width = 640;
        pix->height = 360;
        pix->pixelformat = V4L2_PIX_FMT_YUV420;
    } else {
        pix->width &= ~1u;
        pix->height &= ~1u;
        if (pix->width < 16) pix->width = 16;
        if (pix->height < 16) pix->height = 16;
        pix->pixelformat = V4L2_PIX_FMT_YUYV;
    }
    pix->field = V4L2_FIELD_NONE;
    pix->bytesperline = pix->pixelformat == V4L2_PIX_FMT_YUYV ? pix->width * 2 : pix->width;
    if (is_mode("shortlines")) pix->bytesperline = pix->width;
    pix->sizeimage = pix->pixelformat == V4L2_PIX_FMT_YUYV ? pix->width * pix->height * 2 : pix->width * pix->height * 3 / 2;
    cam.width = pix->width;
    cam.height = pix->height;
    cam.pixelformat = pix->pixelformat;
    cam.bytesperline = pix->bytesperline;
    cam.sizeimage = pix->sizeimage;
}

static int device_ioctl(unsigned long request, void *argument) {
    switch (request) {
    case VIDIOC_QUERYCAP: {
        struct v4l2_capability *capability = argument;
        memset(capability, 0, sizeof *capability);
        snprintf((char *)capability->driver, sizeof capability->driver, "onair-fake");
        snprintf((char *)capability->card, sizeof capability->card, "OnAir emulated camera");
        capability->capabilities = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING | V4L2_CAP_DEVICE_CAPS;
        capability->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
        return 0;
    }
    case VIDIOC_ENUM_FMT: {
        struct v4l2_fmtdesc *description = argument;
        if (description->index > 0) { errno = EINVAL; return -1; }
        description->pixelformat = is_mode("reformat") ? V4L2_PIX_FMT_YUV420 : V4L2_PIX_FMT_YUYV;
        return 0;
    }
    case VIDIOC_S_FMT:
    case VIDIOC_TRY_FMT:
        set_format(&((struct v4l2_format *)argument)->fmt.pix);
        return 0;
    case VIDIOC_S_PARM: {
        struct v4l2_fract *fraction = &((struct v4l2_streamparm *)argument)->parm.capture.timeperframe;
        if (fraction->numerator && fraction->denominator) {
            cam.fps_num = fraction->numerator;
            cam.fps_den = fraction->denominator;
        }
        return 0;
    }
    case VIDIOC_G_PARM: {
        struct v4l2_fract *fraction = &((struct v4l2_streamparm *)argument)->parm.capture.timeperframe;
        fraction->numerator = cam.fps_num;
        fraction->denominator = cam.fps_den;
        return 0;
    }
    case VIDIOC_REQBUFS: {
        struct v4l2_requestbuffers *request_buffers = argument;
        release_buffers();
        cam.count = request_buffers->count > MAX_BUFFERS ? MAX_BUFFERS : request_buffers->count;
        for (unsigned i = 0; i < cam.count; i++) {
            cam.memory[i] = mmap(NULL, cam.sizeimage, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
            cam.queued[i] = 0;
        }
        request_buffers->count = cam.count;
        return 0;
    }
    case VIDIOC_QUERYBUF: {
        struct v4l2_buffer *buffer = argument;
        if (buffer->index >= cam.count) { errno = EINVAL; return -1; }
        buffer->length = cam.sizeimage;
        buffer->m.offset = buffer->index * 0x100000u;
        return 0;
    }
    case VIDIOC_QBUF: {
        struct v4l2_buffer *buffer = argument;
        if (buffer->index >= cam.count) { errno = EINVAL; return -1; }
        cam.queued[buffer->index] = 1;
        return 0;
    }
    case VIDIOC_DQBUF: {
        struct v4l2_buffer *buffer = argument;
        if (stream_unplugged()) { errno = ENODEV; return -1; }
        if (is_mode("stall") || now_ns() < cam.next_due_ns) { errno = EAGAIN; return -1; }
        for (unsigned i = 0; i < cam.count; i++) {
            if (!cam.queued[i]) continue;
            cam.queued[i] = 0;
            fill(cam.memory[i], cam.sequence);
            uint64_t now = now_ns();
            buffer->index = i;
            buffer->bytesused = cam.sizeimage;
            buffer->sequence = cam.sequence++;
            buffer->flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
            buffer->timestamp.tv_sec = (time_t)(now / 1000000000ull);
            buffer->timestamp.tv_usec = (suseconds_t)(now % 1000000000ull / 1000);
            char word[32];
            control_word(word, sizeof word);
            if (strcmp(word, "damaged") == 0 || (strcmp(word, "damaged-half") == 0 && buffer->sequence % 2)) buffer->flags |= V4L2_BUF_FLAG_ERROR;
            if (strcmp(word, "empty") == 0) buffer->bytesused = 0;
            if (strcmp(word, "overlong") == 0) buffer->bytesused = cam.sizeimage + 1;
            if (strcmp(word, "badindex") == 0) buffer->index = cam.count;
            cam.next_due_ns = now + 1000000000ull * cam.fps_num / cam.fps_den;
            return 0;
        }
        errno = EAGAIN;
        return -1;
    }
    case VIDIOC_STREAMON:
        cam.streaming = 1;
        cam.next_due_ns = now_ns();
        return 0;
    case VIDIOC_STREAMOFF:
        cam.streaming = 0;
        return 0;
    default:
        errno = ENOTTY;
        return -1;
    }
}

int ioctl(int fd, unsigned long request, ...) {
    va_list args;
    va_start(args, request);
    void *argument = va_arg(args, void *);
    va_end(args);
    if (fd >= 0 && fd == cam.fd) return device_ioctl(request, argument);
    static int (*next)(int, unsigned long, ...);
    if (!next) next = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
    return next(fd, request, argument);
}

static void *device_mmap(void *address, size_t length, int flags, off_t offset) {
    unsigned index = (unsigned)(offset / 0x100000);
    if (index >= cam.count || length > cam.sizeimage || !cam.memory[index]) {
        errno = EINVAL;
        return MAP_FAILED;
    }
    /* The same pages again: V4L2Camera munmaps its view; the shim keeps the buffer until REQBUFS/close. */
    if (flags & MAP_FIXED) return mremap(cam.memory[index], 0, length, MREMAP_MAYMOVE | MREMAP_FIXED, address);
    return mremap(cam.memory[index], 0, length, MREMAP_MAYMOVE);
}

void *mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
    if (fd >= 0 && fd == cam.fd) return device_mmap(address, length, flags, offset);
    static void *(*next)(void *, size_t, int, int, int, off_t);
    if (!next) next = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
    return next(address, length, protection, flags, fd, offset);
}

void *mmap64(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
    if (fd >= 0 && fd == cam.fd) return device_mmap(address, length, flags, offset);
    static void *(*next)(void *, size_t, int, int, int, off_t);
    if (!next) next = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap64");
    return next(address, length, protection, flags, fd, offset);
}

int poll(struct pollfd *fds, nfds_t count, int timeout) {
    static int (*next)(struct pollfd *, nfds_t, int);
    if (!next) next = (int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT, "poll");
    if (count != 1 || fds[0].fd < 0 || fds[0].fd != cam.fd) return next(fds, count, timeout);
    fds[0].revents = 0;
    if (stream_unplugged()) {
        fds[0].revents = POLLERR;
        return 1;
    }
    uint64_t deadline = now_ns() + (timeout < 0 ? 3600000000000ull : (uint64_t)timeout * 1000000ull);
    while (now_ns() < deadline) {
        if (!is_mode("stall") && cam.streaming && now_ns() >= cam.next_due_ns) {
            fds[0].revents = POLLIN;
            return 1;
        }
        if (stream_unplugged()) {
            fds[0].revents = POLLERR;
            return 1;
        }
        usleep(2000);
    }
    return 0;
}
