// V4L2 bridge for OnAirMedia (the only Swift target that imports it).
//
// VIDIOC_* requests and V4L2_PIX_FMT_* codes are function-like macros; Swift imports
// neither, so each one used is wrapped under its own name. Plain `open` + `ioctl`
// are enough (docs/platform-notes.md, "V4L2 without a camera").
#ifndef ONAIR_CV4L2_SHIM_H
#define ONAIR_CV4L2_SHIM_H

#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/videodev2.h>

static inline unsigned long onair_VIDIOC_QUERYCAP(void) { return VIDIOC_QUERYCAP; }
static inline unsigned long onair_VIDIOC_ENUM_FMT(void) { return VIDIOC_ENUM_FMT; }
static inline unsigned long onair_VIDIOC_G_FMT(void) { return VIDIOC_G_FMT; }
static inline unsigned long onair_VIDIOC_S_FMT(void) { return VIDIOC_S_FMT; }
static inline unsigned long onair_VIDIOC_G_PARM(void) { return VIDIOC_G_PARM; }
static inline unsigned long onair_VIDIOC_S_PARM(void) { return VIDIOC_S_PARM; }
static inline unsigned long onair_VIDIOC_REQBUFS(void) { return VIDIOC_REQBUFS; }
static inline unsigned long onair_VIDIOC_QUERYBUF(void) { return VIDIOC_QUERYBUF; }
static inline unsigned long onair_VIDIOC_QBUF(void) { return VIDIOC_QBUF; }
static inline unsigned long onair_VIDIOC_DQBUF(void) { return VIDIOC_DQBUF; }
static inline unsigned long onair_VIDIOC_STREAMON(void) { return VIDIOC_STREAMON; }
static inline unsigned long onair_VIDIOC_STREAMOFF(void) { return VIDIOC_STREAMOFF; }

static inline uint32_t onair_V4L2_PIX_FMT_YUYV(void) { return V4L2_PIX_FMT_YUYV; }
static inline uint32_t onair_V4L2_PIX_FMT_MJPEG(void) { return V4L2_PIX_FMT_MJPEG; }
static inline uint32_t onair_V4L2_PIX_FMT_YUV420(void) { return V4L2_PIX_FMT_YUV420; }
static inline uint32_t onair_V4L2_PIX_FMT_NV12(void) { return V4L2_PIX_FMT_NV12; }

_Static_assert(sizeof(struct v4l2_buffer) > 0, "v4l2_buffer must be visible");

#endif
