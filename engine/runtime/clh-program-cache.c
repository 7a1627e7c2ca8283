/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-program-cache.h"
#include "clh-build-log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A cache file: MAGIC, the binary's length (8 bytes, little-endian), the
 * binary's SHA-256 digest, then the binary. Drivers are not trusted to
 * notice a damaged binary (PoCL 3.1 crashes in clCreateProgramWithBinary
 * on one whose own header is intact), so the length and digest are
 * checked before the driver sees it. */
#define MAGIC "CLHPRG01"
#define MAGIC_SIZE 8
#define LENGTH_SIZE 8
#define DIGEST_SIZE 32
#define HEADER_SIZE (MAGIC_SIZE + LENGTH_SIZE + DIGEST_SIZE)
/* Larger than any driver's binary of these kernels (PoCL's, which bundles
 * a shared object per kernel, is under 2 MiB), small enough to read before
 * checking it. */
#define MAX_FILE_SIZE (64 << 20)

/**
 * clh_program_cache_default_dir:
 *
 * Where programs are cached unless told otherwise: `$CLHISTOGRAM_CACHE_DIR`
 * if set, else `clhistogram` in the user's cache directory
 * (`~/.cache/clhistogram`). `CLHISTOGRAM_CACHE_DIR=` (empty) turns the
 * cache off.
 *
 * Returns: (transfer full): the directory, or `""` when the cache is off
 */
gchar *
clh_program_cache_default_dir (void)
{
  const gchar *dir = g_getenv ("CLHISTOGRAM_CACHE_DIR");

  if (dir)
    return g_strdup (dir);
  return g_build_filename (g_get_user_cache_dir (), "clhistogram", NULL);
}

/* Whether a directory with @st may hold trusted files: one that only its
 * owner, this user or root, can change, or a sticky one (/tmp), where
 * nobody else can rename what is ours. */
static gboolean
safe_ancestor (const struct stat *st)
{
  return S_ISDIR (st->st_mode)
      && (st->st_uid == geteuid () || st->st_uid == 0)
      && (!(st->st_mode & (S_IWGRP | S_IWOTH)) || (st->st_mode & S_ISVTX));
}

/* The symbolic links on the way to @dir as written: one that another
 * user owns, or that lies in a directory others can change, could point
 * the cache elsewhere at any time, whatever its target's check found (a
 * link another user left in /tmp); G_FILE_ERROR_PERM saying which. */
static gboolean
check_links (const gchar *dir, GError **error)
{
  gchar *path = g_canonicalize_filename (dir, NULL);
  gchar **parts = g_strsplit (path, "/", -1);
  GString *prefix = g_string_new (NULL);
  gboolean ok = TRUE;
  guint i;

  for (i = 0; ok && parts[i]; i++) {
    struct stat st, parent;

    if (!*parts[i])
      continue;
    g_string_append_printf (prefix, "/%s", parts[i]);
    if (lstat (prefix->str, &st) != 0 || !S_ISLNK (st.st_mode))
      continue;
    {
      gchar *up = g_path_get_dirname (prefix->str);

      ok = (st.st_uid == geteuid () || st.st_uid == 0)
          && stat (up, &parent) == 0 && safe_ancestor (&parent);
      g_free (up);
    }
    if (!ok)
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_PERM, "%s, on the way "
          "to the cache, is a symbolic link of uid %u that others can "
          "change; give the cache a path through links of your own",
          prefix->str, (guint) st.st_uid);
  }
  g_string_free (prefix, TRUE);
  g_strfreev (parts);
  g_free (path);
  return ok;
}

/* Whether the cache directory can be trusted: a real directory (not a
 * symlink), owned by this user, with no access for group or others, under
 * directories nobody else can change; G_FILE_ERROR_PERM saying why not.
 * Anyone who can write a binary there can have it run as this user: PoCL's
 * binaries carry the kernels as shared objects that it dlopen()s. */
static gboolean
check_dir (const gchar *dir, GError **error)
{
  gchar *real, *up;
  struct stat st;
  gboolean ok = TRUE;

  if (!check_links (dir, error))
    return FALSE;
  real = realpath (dir, NULL);
  if (lstat (dir, &st) != 0 || !real) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_PERM, "%s: %s", dir,
        g_strerror (errno));
    free (real);
    return FALSE;
  }
  if (S_ISLNK (st.st_mode) || !S_ISDIR (st.st_mode)
      || st.st_uid != geteuid () || (st.st_mode & 077)) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_PERM, "%s is %s owned "
        "by uid %u with mode %04o; the cache needs a directory of its own, "
        "owned by uid %u, mode 0700", dir, S_ISLNK (st.st_mode) ?
        "a symbolic link" : S_ISDIR (st.st_mode) ? "a directory" :
        "not a directory", (guint) st.st_uid, (guint) (st.st_mode & 07777),
        (guint) geteuid ());
    free (real);
    return FALSE;
  }
  for (up = g_path_get_dirname (real); ok; ) {
    gchar *next = g_path_get_dirname (up);

    ok = stat (up, &st) == 0 && safe_ancestor (&st);
    if (!ok)
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_PERM, "%s, above the "
          "cache, can be changed by other users (uid %u, mode %04o)", up,
          (guint) st.st_uid, (guint) (st.st_mode & 07777));
    if (g_str_equal (next, up)) {
      g_free (next);
      break;
    }
    g_free (up);
    up = next;
  }
  g_free (up);
  free (real);
  return ok;
}

/* Reads the cache file at @path: a regular file owned by this user, not
 * readable or writable by others, not a symbolic link, at most
 * MAX_FILE_SIZE bytes; never blocks (a FIFO) or reads without bound (a
 * device). G_FILE_ERROR_NOENT if there is none. */
static gboolean
read_file (const gchar *path, guint8 **contents, gsize *size, GError **error)
{
  int fd = open (path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  gsize done = 0;
  guint8 *data;

  if (fd < 0) {
    int saved = errno;
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
        "%s: %s", path, saved == ELOOP ? "a symbolic link" :
        g_strerror (saved));
    return FALSE;
  }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode)
      || st.st_uid != geteuid () || (st.st_mode & 077)
      || st.st_size > MAX_FILE_SIZE) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_PERM, "%s is not a "
        "regular file of uid %u, mode 0600, at most %d bytes (uid %u, mode "
        "%04o, %" G_GINT64_FORMAT " bytes)", path, (guint) geteuid (),
        MAX_FILE_SIZE, (guint) st.st_uid, (guint) (st.st_mode & 07777),
        (gint64) st.st_size);
    close (fd);
    return FALSE;
  }
  data = g_malloc (MAX (st.st_size, 1));
  while (done < (gsize) st.st_size) {
    gssize n = read (fd, data + done, st.st_size - done);

    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    done += n;
  }
  close (fd);
  if (done != (gsize) st.st_size) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_IO, "%s: read %"
        G_GSIZE_FORMAT " of %" G_GINT64_FORMAT " bytes", path, done,
        (gint64) st.st_size);
    g_free (data);
    return FALSE;
  }
  *contents = data;
  *size = done;
  return TRUE;
}

/* Each part is followed by its NUL, so that moving bytes from one part to
 * the next changes the key. */
static void
checksum_add (GChecksum *sum, const gchar *part)
{
  g_checksum_update (sum, (const guchar *) part, strlen (part) + 1);
}

static void
checksum_add_owned (GChecksum *sum, gchar *part)
{
  checksum_add (sum, part);
  g_free (part);
}

/**
 * clh_program_cache_file:
 * @cache_dir: the cache directory (not empty)
 * @device: the device the program is built for
 * @source: the kernels' OpenCL C source
 * @options: the build options
 *
 * The file that caches @source built with @options for @device: named by
 * the SHA-256 of the platform's name and version, the device's name and
 * version, the driver version, @options and @source, so that a driver
 * update or an edited kernel finds no stale file.
 *
 * Returns: (transfer full): `<cache_dir>/<sha256>.bin`; the file need not
 *   exist
 */
gchar *
clh_program_cache_file (const gchar *cache_dir, const ClhDeviceInfo *device,
    const gchar *source, const gchar *options)
{
  GChecksum *sum;
  gchar *name, *path;

  g_return_val_if_fail (cache_dir != NULL && *cache_dir != '\0', NULL);

  sum = g_checksum_new (G_CHECKSUM_SHA256);
  checksum_add_owned (sum, clh_platform_string (device->platform,
          CL_PLATFORM_NAME));
  checksum_add_owned (sum, clh_platform_string (device->platform,
          CL_PLATFORM_VERSION));
  checksum_add_owned (sum, clh_device_string (device->device, CL_DEVICE_NAME));
  checksum_add_owned (sum, clh_device_string (device->device,
          CL_DEVICE_VERSION));
  checksum_add_owned (sum, clh_device_string (device->device,
          CL_DRIVER_VERSION));
  checksum_add (sum, options ? options : "");
  checksum_add (sum, source);

  name = g_strconcat (g_checksum_get_string (sum), ".bin", NULL);
  path = g_build_filename (cache_dir, name, NULL);
  g_free (name);
  g_checksum_free (sum);
  return path;
}

static void
digest (const guint8 *data, gsize size, guint8 out[DIGEST_SIZE])
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize out_size = DIGEST_SIZE;

  g_checksum_update (sum, data, size);
  g_checksum_get_digest (sum, out, &out_size);
  g_checksum_free (sum);
}

/* Writes the header for the @size bytes of binary that follow it. */
static void
write_header (guint8 *file, gsize size)
{
  guint64 le = GUINT64_TO_LE ((guint64) size);

  memcpy (file, MAGIC, MAGIC_SIZE);
  memcpy (file + MAGIC_SIZE, &le, LENGTH_SIZE);
  digest (file + HEADER_SIZE, size, file + MAGIC_SIZE + LENGTH_SIZE);
}

/* Whether @file (@size bytes) is a whole cache file whose binary is the
 * one that was written; G_FILE_ERROR_INVAL saying why not. */
static gboolean
check_file (const guint8 *file, gsize size, GError **error)
{
  guint64 length;
  guint8 sum[DIGEST_SIZE];

  if (size < HEADER_SIZE || memcmp (file, MAGIC, MAGIC_SIZE) != 0) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "not a program cache file");
    return FALSE;
  }
  memcpy (&length, file + MAGIC_SIZE, LENGTH_SIZE);
  length = GUINT64_FROM_LE (length);
  if (length == 0 || length != size - HEADER_SIZE) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "the header says %" G_GUINT64_FORMAT " bytes of binary, the file "
        "holds %" G_GSIZE_FORMAT, length, size - HEADER_SIZE);
    return FALSE;
  }
  digest (file + HEADER_SIZE, length, sum);
  if (memcmp (sum, file + MAGIC_SIZE + LENGTH_SIZE, DIGEST_SIZE) != 0) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "the binary's SHA-256 digest does not match the header's");
    return FALSE;
  }
  return TRUE;
}

/* The driver may still refuse a binary it wrote (another compiler build
 * under the same version string, say): both the call's result and the
 * binary's status are checked, and clBuildProgram must accept it. */
static cl_program
program_from_binary (cl_context context, const ClhDeviceInfo *device,
    const guint8 *binary, gsize size, const gchar *options, GError **error)
{
  const unsigned char *binaries[1] = { binary };
  size_t sizes[1] = { size };
  cl_int ret, status = CL_INVALID_BINARY;
  cl_program program;

  program = clCreateProgramWithBinary (context, 1, &device->device, sizes,
      binaries, &status, &ret);
  if (!clh_cl_check (ret, "clCreateProgramWithBinary", error)
      || !clh_cl_check (status, "clCreateProgramWithBinary (binary status)",
          error)
      || !clh_cl_check (clBuildProgram (program, 1, &device->device, options,
              NULL, NULL), "clBuildProgram (from a binary)", error)) {
    if (program)
      clReleaseProgram (program);
    return NULL;
  }
  return program;
}

/* The program from the cache file at @path, or NULL with @origin saying
 * whether there was no file (BUILT) or a file that could not be used
 * (REBUILT, logged). */
static cl_program
load_cached (cl_context context, const ClhDeviceInfo *device,
    const gchar *options, const gchar *path, ClhProgramOrigin *origin)
{
  guint8 *file = NULL;
  gsize size = 0;
  GError *why = NULL;
  cl_program program = NULL;

  *origin = CLH_PROGRAM_BUILT;
  if (!read_file (path, &file, &size, &why)) {
    if (g_error_matches (why, G_FILE_ERROR, G_FILE_ERROR_NOENT)) {
      g_error_free (why);
      return NULL;
    }
  } else if (check_file (file, size, &why)) {
    program = program_from_binary (context, device,
        (const guint8 *) file + HEADER_SIZE, size - HEADER_SIZE, options,
        &why);
  }
  g_free (file);

  if (program) {
    *origin = CLH_PROGRAM_CACHED;
    return program;
  }
  g_info ("Not using the cached program %s, compiling the kernels: %s",
      path, why->message);
  g_error_free (why);
  *origin = CLH_PROGRAM_REBUILT;
  return NULL;
}

/* CLH_ENGINE_ERROR_BUILD for @program's failed build, with the driver's
 * build log: the log is what tells a kernel bug from a driver problem. */
static void
set_build_error (cl_program program, const ClhDeviceInfo *device,
    const gchar *source, cl_int ret, GError **error)
{
  size_t log_size = 0;
  gchar *log, *located;

  clGetProgramBuildInfo (program, device->device, CL_PROGRAM_BUILD_LOG, 0,
      NULL, &log_size);
  log = g_malloc0 (log_size + 1);
  clGetProgramBuildInfo (program, device->device, CL_PROGRAM_BUILD_LOG,
      log_size, log, NULL);
  located = clh_build_log_locate (g_strstrip (log), source);
  g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_BUILD,
      "Building the histogram kernels for %s (%s) failed with %s. "
      "Build log:\n%s", device->name, device->platform_name,
      clh_cl_error_name (ret), located);
  g_free (located);
  g_free (log);
}

static cl_program
build_from_source (cl_context context, const ClhDeviceInfo *device,
    const gchar *source, const gchar *options, GError **error)
{
  cl_program program;
  cl_int ret;

  program = clCreateProgramWithSource (context, 1, &source, NULL, &ret);
  if (!clh_cl_check (ret, "clCreateProgramWithSource", error))
    return NULL;

  ret = clBuildProgram (program, 1, &device->device, options, NULL, NULL);
  if (ret != CL_SUCCESS) {
    set_build_error (program, device, source, ret, error);
    clReleaseProgram (program);
    return NULL;
  }
  return program;
}

/* The size of @program's binary. Only a program of one device is cached:
 * its context holds the one device it was built for. */
static gboolean
binary_size (cl_program program, gsize *size, GError **error)
{
  cl_uint n_devices = 0;
  size_t n = 0;

  if (!clh_cl_check (clGetProgramInfo (program, CL_PROGRAM_NUM_DEVICES,
              sizeof (n_devices), &n_devices, NULL),
          "clGetProgramInfo (CL_PROGRAM_NUM_DEVICES)", error))
    return FALSE;
  if (n_devices != 1) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_OPENCL,
        "the program is for %u devices, not one", n_devices);
    return FALSE;
  }
  if (!clh_cl_check (clGetProgramInfo (program, CL_PROGRAM_BINARY_SIZES,
              sizeof (n), &n, NULL),
          "clGetProgramInfo (CL_PROGRAM_BINARY_SIZES)", error))
    return FALSE;
  if (n == 0) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_OPENCL,
        "the driver gives no binary for the program");
    return FALSE;
  }
  *size = n;
  return TRUE;
}

/* The cache file's contents for @program's binary: header and binary in
 * one block, the driver writing the binary in place. */
static guint8 *
file_contents (cl_program program, gsize *file_size, GError **error)
{
  gsize size = 0;
  guint8 *file;
  unsigned char *binaries[1];

  if (!binary_size (program, &size, error))
    return NULL;

  file = g_malloc (HEADER_SIZE + size);
  binaries[0] = file + HEADER_SIZE;
  if (!clh_cl_check (clGetProgramInfo (program, CL_PROGRAM_BINARIES,
              sizeof (binaries), binaries, NULL),
          "clGetProgramInfo (CL_PROGRAM_BINARIES)", error)) {
    g_free (file);
    return NULL;
  }
  write_header (file, size);
  *file_size = HEADER_SIZE + size;
  return file;
}

/* Writes @size bytes of @data to @fd, through short writes and signals. */
static gboolean
write_all (int fd, const guint8 *data, gsize size)
{
  while (size > 0) {
    const ssize_t n = write (fd, data, size);

    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return FALSE;
    data += n;
    size -= (gsize) n;
  }
  return TRUE;
}

/* Saves @program's binary at @path, mode 0600. The file is written under a
 * new name (O_EXCL, mode 0600 whatever the umask) and renamed over @path,
 * which replaces a symbolic link there rather than following it, and means
 * another process never reads half of it; the digest catches what goes
 * wrong anyway (a full disk, a crash). Not g_file_set_contents_full(): the
 * GLib of Debian 13 (2.84) gives the new file the mode of the one it
 * replaces, a link's target's included (0666 for /dev/zero). */
static gboolean
save_binary (cl_program program, const gchar *cache_dir, const gchar *path,
    GError **error)
{
  gchar *tmp = g_strconcat (path, ".XXXXXX", NULL);
  gsize size = 0;
  guint8 *file;
  gboolean ok;
  int fd, saved;

  file = file_contents (program, &size, error);
  if (!file) {
    g_free (tmp);
    return FALSE;
  }
  fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0600);
  ok = fd >= 0 && fchmod (fd, 0600) == 0 && write_all (fd, file, size)
      && fsync (fd) == 0;
  saved = errno;
  if (fd >= 0 && close (fd) != 0 && ok) {
    ok = FALSE;
    saved = errno;
  }
  if (ok && rename (tmp, path) != 0) {
    ok = FALSE;
    saved = errno;
  }
  if (!ok) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
        "Cannot write %s: %s", path, g_strerror (saved));
    if (fd >= 0)
      unlink (tmp);
  }
  g_free (tmp);
  g_free (file);
  return ok;
}

/* Creates the cache directory (mode 0700) if needed and checks it can be
 * trusted; if not, the cache is off for this build, with a message that
 * says why and what to do. */
static gboolean
open_cache_dir (const gchar *dir)
{
  GError *why = NULL;

  if (g_mkdir_with_parents (dir, 0700) != 0) {
    g_info ("Not caching compiled kernels: cannot create %s: %s", dir,
        g_strerror (errno));
    return FALSE;
  }
  if (check_dir (dir, &why))
    return TRUE;
  g_message ("Not using the kernel cache: %s. Make it so (chmod 0700), or "
      "set CLHISTOGRAM_CACHE_DIR to another directory, or to \"\" to turn "
      "the cache off.", why->message);
  g_error_free (why);
  return FALSE;
}

/**
 * clh_program_cache_build:
 * @context: an OpenCL context holding @device only
 * @device: the device to build for
 * @source: the kernels' OpenCL C source
 * @options: the build options
 * @cache_dir: (nullable): the cache directory; %NULL for
 *   clh_program_cache_default_dir(), `""` for no cache
 * @origin: (out) (optional): where the program came from
 * @error: %CLH_ENGINE_ERROR_BUILD (naming the device and platform, with the
 *   driver's build log) when @source does not compile, or
 *   %CLH_ENGINE_ERROR_OPENCL when the driver refuses to create the program
 *
 * Builds @source with @options for @device, from the binary cached by an
 * earlier build when one exists. A cache file that is truncated, damaged
 * (checked by its SHA-256 digest) or refused by the driver is never used:
 * the source is compiled again and the file replaced. After compiling,
 * the binary is written to the cache, creating @cache_dir (mode 0700) if
 * needed; a cache that cannot be read or written is logged with g_info()
 * and is not an error.
 *
 * The cache is input from outside: only a directory owned by this user
 * with no access for others, under directories only their owner (this
 * user or root) can change, is used (else the cache is off, with a
 * g_message() saying why); only regular files of this user, mode 0600, not
 * symbolic links, of at most 64 MiB, are read. So only a process running
 * as this user (or root) can have put a binary there, and a binary is
 * used only if its SHA-256 digest matches: accidental damage never reaches
 * the driver.
 *
 * Returns: (transfer full) (nullable): the built program, or %NULL on error
 */
cl_program
clh_program_cache_build (cl_context context, const ClhDeviceInfo *device,
    const gchar *source, const gchar *options, const gchar *cache_dir,
    ClhProgramOrigin *origin, GError **error)
{
  gchar *default_dir = NULL, *path = NULL;
  ClhProgramOrigin from = CLH_PROGRAM_BUILT;
  cl_program program = NULL;
  GError *why = NULL;

  if (!cache_dir)
    cache_dir = default_dir = clh_program_cache_default_dir ();
  if (*cache_dir && !open_cache_dir (cache_dir))
    cache_dir = "";
  if (*cache_dir) {
    path = clh_program_cache_file (cache_dir, device, source, options);
    program = load_cached (context, device, options, path, &from);
  }

  if (!program) {
    program = build_from_source (context, device, source, options, error);
    if (program && path && !save_binary (program, cache_dir, path, &why)) {
      g_info ("Not caching the compiled kernels in %s: %s", path,
          why->message);
      g_clear_error (&why);
    }
  }

  if (program && origin)
    *origin = from;
  g_free (path);
  g_free (default_dir);
  return program;
}
