#ifndef MARQUEE_FAKE_KERNEL_H
#define MARQUEE_FAKE_KERNEL_H

// A fake kernel for tests, preloaded into a program (LD_PRELOAD=libMarqueeFakeKernel.so):
// open, ioctl and close on the spidev nodes named in MARQUEE_FAKE_SPIDEV answer as the
// spidev driver does, and every transfer is recorded. See FakeKernel.c for the variables.

#endif
