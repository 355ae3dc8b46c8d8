/* The worker's sandbox: capabilities, limits, Landlock, then the seccomp
 * filter (seccomp_filter.c). See worker_sandbox.h. */
#define _GNU_SOURCE
#include "worker_sandbox.h"
#include "sandbox_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <link.h>
#include <linux/capability.h>
#include <linux/landlock.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Newer than the system headers may be: the kernel's values. */
#define LL_ACCESS_FS_REFER (1ULL << 13)
#define LL_ACCESS_FS_TRUNCATE (1ULL << 14)
#define LL_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#define LL_ACCESS_NET_BIND_TCP (1ULL << 0)
#define LL_ACCESS_NET_CONNECT_TCP (1ULL << 1)
#define LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LL_SCOPE_SIGNAL (1ULL << 1)
#define LL_RULE_PATH_BENEATH 1

/* The ruleset attribute as of ABI 6; older kernels accept it while the newer members are zero. */
struct ll_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct ll_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

/* Reading: all a plugin gets, beneath a folder or on a file. */
#define LL_READ_FILE LANDLOCK_ACCESS_FS_READ_FILE
#define LL_READ_DIR (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)

static int fail(char *error, size_t capacity, const char *what) {
    snprintf(error, capacity, "%s: %s", what, strerror(errno));
    return -1;
}

int worker_sandbox_landlock_abi(void) {
    long version = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return version > 0 ? (int)version : 0;
}

int worker_sandbox_make_host_untraceable(void) { return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }

/* --- Limits and capabilities ------------------------------------------------------------- */

static int set_limit(int resource, rlim_t value) {
    struct rlimit limit = { value, value };
    return setrlimit(resource, &limit);
}

/* Few descriptors: the worker's own (about ten), the loader's, a plugin's resource files. */
#define SANDBOX_DESCRIPTORS 64

static int apply_limits(uint64_t memory_limit, char *error, size_t capacity) {
    if (set_limit(RLIMIT_CORE, 0) != 0) return fail(error, capacity, "cannot forbid core files (RLIMIT_CORE)");
    if (set_limit(RLIMIT_NOFILE, SANDBOX_DESCRIPTORS) != 0) return fail(error, capacity, "cannot limit descriptors (RLIMIT_NOFILE)");
    if (memory_limit > 0 && set_limit(RLIMIT_AS, (rlim_t)memory_limit) != 0)
        return fail(error, capacity, "cannot limit memory (RLIMIT_AS)");
    return 0;
}

/* Every set emptied: as root, a worker would otherwise keep CAP_SYS_PTRACE,
 * CAP_KILL, CAP_DAC_OVERRIDE... and reach the host whatever else holds. */
static int drop_capabilities(char *error, size_t capacity) {
    int privileged = geteuid() == 0;
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL)
        return fail(error, capacity, "cannot clear the ambient capabilities");
    for (int cap = 0; cap < 64; cap++) {
        int held = prctl(PR_CAPBSET_READ, cap, 0, 0, 0);
        if (held < 0) break; /* past the kernel's last capability */
        if (held == 0) continue; /* dropped already: a scanner's fork enters again what the scanner entered */
        /* Without CAP_SETPCAP (an ordinary user) the bounding set cannot shrink, and holds nothing usable. */
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && (privileged || errno != EPERM))
            return fail(error, capacity, "cannot drop a capability from the bounding set");
    }
    struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capset, &header, data) != 0) return fail(error, capacity, "cannot drop capabilities (capset)");
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return fail(error, capacity, "cannot set PR_SET_NO_NEW_PRIVS");
    return 0;
}

/* --- Landlock ----------------------------------------------------------------------------- */

/* Adds read access beneath `path` (a folder) or to it (a file); a path that does not exist is skipped. */
static int allow_reading(int ruleset, const char *path, char *error, size_t capacity) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return 0;
    struct stat st;
    int is_folder = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
    struct ll_path_beneath_attr rule = { is_folder ? LL_READ_DIR : LL_READ_FILE, fd };
    long rc = syscall(SYS_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &rule, 0);
    int saved = errno;
    close(fd);
    errno = saved;
    if (rc != 0) {
        snprintf(error, capacity, "cannot allow reading %s (landlock_add_rule): %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

struct library_folders {
    int ruleset;
    int failed;
    char *error;
    size_t capacity;
};

/* The folder of every library this process has loaded: the Swift runtime's,
 * wherever the toolchain put it, without naming it here. */
static int allow_library_folder(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct library_folders *folders = data;
    const char *name = info->dlpi_name;
    const char *slash = name ? strrchr(name, '/') : NULL;
    if (slash == NULL || slash == name || folders->failed) return 0;
    char folder[4096];
    size_t length = (size_t)(slash - name);
    if (length >= sizeof folder) return 0;
    memcpy(folder, name, length);
    folder[length] = 0;
    if (allow_reading(folders->ruleset, folder, folders->error, folders->capacity) != 0) folders->failed = 1;
    return 0;
}

/* This process's /proc entry: opened, "/proc/self" is /proc/PID, this process's and no other's. */
static const char own_proc[] = "/proc/self";

/* What the dynamic loader, libc and the Swift runtime read once plugin code runs (and `own_proc`). */
static const char *const system_readable[] = {
    "/etc/ld.so.cache", "/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib",
    "/sys/devices/system/cpu", /* sysconf(_SC_NPROCESSORS_ONLN) */
    "/dev/null", "/dev/zero", "/dev/urandom",
    "/etc/localtime", "/usr/share/zoneinfo", /* a Swift plugin's Foundation reads the time zone */
};

/* A ruleset allowing reading beneath `readable`, the system's folders and the loaded libraries' (and this
 * process's /proc entry when `with_own_proc`); its descriptor, or -1 with a sentence in `error`. */
static int build_ruleset(const char *const *readable, size_t count, int abi, int with_own_proc, char *error, size_t capacity) {
    struct ll_ruleset_attr attr = { 0, 0, 0 };
    attr.handled_access_fs = (1ULL << 13) - 1; /* ABI 1: EXECUTE ... MAKE_SYM */
    if (abi >= 2) attr.handled_access_fs |= LL_ACCESS_FS_REFER;
    if (abi >= 3) attr.handled_access_fs |= LL_ACCESS_FS_TRUNCATE;
    if (abi >= 5) attr.handled_access_fs |= LL_ACCESS_FS_IOCTL_DEV;
    if (abi >= 4) attr.handled_access_net = LL_ACCESS_NET_BIND_TCP | LL_ACCESS_NET_CONNECT_TCP;
    if (abi >= 6) attr.scoped = LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL;
    size_t size = abi >= 6 ? sizeof attr : abi >= 4 ? offsetof(struct ll_ruleset_attr, scoped) : sizeof(uint64_t);
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
    if (ruleset < 0) return fail(error, capacity, "cannot create the Landlock ruleset");
    int rc = 0;
    for (size_t i = 0; i < count && rc == 0; i++) rc = allow_reading(ruleset, readable[i], error, capacity);
    for (size_t i = 0; i < sizeof system_readable / sizeof *system_readable && rc == 0; i++)
        rc = allow_reading(ruleset, system_readable[i], error, capacity);
    if (rc == 0 && with_own_proc) rc = allow_reading(ruleset, own_proc, error, capacity);
    if (rc == 0) {
        struct library_folders folders = { ruleset, 0, error, capacity };
        dl_iterate_phdr(allow_library_folder, &folders);
        rc = folders.failed ? -1 : 0;
    }
    if (rc != 0) {
        close(ruleset);
        return -1;
    }
    return ruleset;
}

int worker_sandbox_prepare_landlock(const char *const *readable, size_t count, char *error, size_t capacity) {
    int abi = worker_sandbox_landlock_abi();
    if (abi == 0) {
        snprintf(error, capacity, "this kernel has no Landlock");
        return -1;
    }
    return build_ruleset(readable, count, abi, 0, error, capacity);
}

static int apply_landlock(const worker_sandbox_config_t *config, int abi, char *error, size_t capacity) {
    int ruleset = config->landlock_ruleset >= 0
        ? config->landlock_ruleset
        : build_ruleset(config->readable, config->readable_count, abi, 1, error, capacity);
    if (ruleset < 0) return -1;
    int rc = syscall(SYS_landlock_restrict_self, ruleset, 0) == 0 ? 0 : fail(error, capacity, "cannot enter the Landlock domain");
    if (ruleset != config->landlock_ruleset) close(ruleset);
    return rc;
}

/* --- The network namespace ---------------------------------------------------------------- */

/* A network namespace of its own, so that /proc/self/net (every UNIX socket
 * of the machine, abstract names included; TCP connections; interfaces)
 * lists only the process's own, which made there are none. As root,
 * CAP_SYS_ADMIN is enough; an ordinary user needs a user namespace first
 * (one thread, as here). Where neither is allowed, the process goes on in
 * the host's namespace: its sockets are still refused, by seccomp. */
static void isolate_network(void) {
    if (unshare(CLONE_NEWNET) != 0) (void)unshare(CLONE_NEWUSER | CLONE_NEWNET);
}

/* --- All of it ---------------------------------------------------------------------------- */

int worker_sandbox_enter(const worker_sandbox_config_t *config, worker_sandbox_applied_t *applied, char *error,
                         size_t error_capacity) {
    applied->landlock_abi = 0;
    applied->seccomp = 0;
    applied->listener = -1;
    if (config->own_network) isolate_network();
    if (apply_limits(config->memory_limit, error, error_capacity) != 0) return -1;
    if (drop_capabilities(error, error_capacity) != 0) return -1;
    int abi = worker_sandbox_landlock_abi();
    if (abi > 0) {
        if (apply_landlock(config, abi, error, error_capacity) != 0) return -1;
        applied->landlock_abi = abi;
    }
    if (config->without_filter) return 0;
    if (sandbox_watch_faults(config->note) != 0) return fail(error, error_capacity, "cannot install the sandbox's signal handlers");
    if (worker_sandbox_seccomp_available()) {
        applied->listener = sandbox_install_filter(config->thread_limit);
        if (applied->listener < 0) return fail(error, error_capacity, "cannot install the seccomp filter");
        applied->seccomp = 1;
    }
    config->note->magic = WORKER_SANDBOX_MAGIC;
    return 0;
}
