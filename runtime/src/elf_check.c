/*===- elf_check.c - is a file a whole shared object? ------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "elf_check.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads exactly `size` bytes at `offset`; 0 on success. */
static int read_at(int fd, void *buffer, size_t size, uint64_t offset) {
  size_t done = 0;
  while (done < size) {
    ssize_t got =
        pread(fd, (char *)buffer + done, size - done, (off_t)(offset + done));
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      return -1;
    }
    done += (size_t)got;
  }
  return 0;
}

/* Whether [offset, offset + length) lies inside a file of `size` bytes. */
static int inside(uint64_t offset, uint64_t length, uint64_t size) {
  return offset <= size && length <= size - offset;
}

static infer_status_t check_headers(int fd, const char *path, uint64_t size) {
  ElfW(Ehdr) header;
  if (size < sizeof header || read_at(fd, &header, sizeof header, 0) != 0 ||
      memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "'%s' is not a shared object (no ELF header); "
                             "load the .so that infer-compile wrote",
                             path);
  }
  int wanted_class = sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32;
  if (header.e_ident[EI_CLASS] != wanted_class ||
      header.e_ident[EI_DATA] != ELFDATA2LSB) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "'%s' is an ELF file for another kind of machine",
                             path);
  }
  if (header.e_type != ET_DYN) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "'%s' is an ELF file but not a shared object "
                             "(link the .o into a .so, or load the .so "
                             "infer-compile wrote)",
                             path);
  }
  if (header.e_phentsize != sizeof(ElfW(Phdr)) || header.e_phnum == 0 ||
      !inside(header.e_phoff, (uint64_t)header.e_phnum * sizeof(ElfW(Phdr)),
              size) ||
      (header.e_shoff != 0 &&
       !inside(header.e_shoff, (uint64_t)header.e_shnum * header.e_shentsize,
               size))) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "'%s' is truncated or corrupt: its ELF headers "
                             "point past its %llu bytes",
                             path, (unsigned long long)size);
  }
  for (unsigned i = 0; i < header.e_phnum; ++i) {
    ElfW(Phdr) segment;
    if (read_at(fd, &segment, sizeof segment,
                header.e_phoff + (uint64_t)i * sizeof segment) != 0) {
      return infer_status_make(INFER_INVALID_ARGUMENT, "cannot read '%s'",
                               path);
    }
    if (segment.p_type == PT_LOAD &&
        !inside(segment.p_offset, segment.p_filesz, size)) {
      return infer_status_make(
          INFER_INVALID_ARGUMENT,
          "'%s' is truncated: a loadable segment ends "
          "at byte %llu of %llu",
          path, (unsigned long long)(segment.p_offset + segment.p_filesz),
          (unsigned long long)size);
    }
  }
  return NULL;
}

infer_status_t infer_check_shared_object(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    return infer_status_make(INFER_NOT_FOUND, "cannot open model '%s': %s",
                             path, strerror(errno));
  }
  struct stat info;
  infer_status_t status = NULL;
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    status =
        infer_status_make(INFER_INVALID_ARGUMENT,
                          "cannot load model '%s': not a regular file", path);
  } else {
    status = check_headers(fd, path, (uint64_t)info.st_size);
  }
  close(fd);
  return status;
}
