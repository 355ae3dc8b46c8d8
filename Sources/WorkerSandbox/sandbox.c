/* The worker's sandbox: capabilities, limits, Landlock, then the seccomp
 * filter (seccomp_filter.c). See worker_sandbox.h. */
#define _GNU_SOURCE
#include "worker_sandbox.h"
#include "sandbox_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
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

/* This process's /proc entry: opened, "/proc/self" is /proc/PID, this process's and no other's. */
static const char own_proc[] = "/proc/self";

/* What the dynamic loader, libc and the Swift runtime read once plugin code runs (and `own_proc`). */
static const char *const system_readable[] = {
    "/etc/ld.so.cache", "/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib",
    "/sys/devices/system/cpu", /* sysconf(_SC_NPROCESSORS_ONLN) */
    "/dev/null", "/dev/zero", "/dev/urandom",
    "/etc/localtime", "/usr/share/zoneinfo", /* a Swift plugin's Foundation reads the time zone */
};

/* Every path a process may read: those given, the system's, its own /proc entry when `with_own_proc`,
 * and the folder of every library it has loaded (the Swift runtime's, wherever the toolchain put it,
 * without naming it here). Built once, for the file view and the Landlock ruleset alike. */
typedef struct {
    const char *paths[512];
    size_t count;
    char folders[64][4096]; /* the libraries' folders, copied */
    size_t folder_count;
} readable_t;

static void add_path(readable_t *list, const char *path) {
    for (size_t i = 0; i < list->count; i++)
        if (strcmp(list->paths[i], path) == 0) return;
    if (list->count < sizeof list->paths / sizeof *list->paths) list->paths[list->count++] = path;
}

static int add_library_folder(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    readable_t *list = data;
    const char *name = info->dlpi_name;
    const char *slash = name ? strrchr(name, '/') : NULL;
    size_t length = slash ? (size_t)(slash - name) : 0;
    if (length == 0 || length >= sizeof list->folders[0] || list->folder_count == sizeof list->folders / sizeof *list->folders)
        return 0;
    char *folder = list->folders[list->folder_count];
    memcpy(folder, name, length);
    folder[length] = 0;
    for (size_t i = 0; i < list->folder_count; i++)
        if (strcmp(list->folders[i], folder) == 0) return 0;
    list->folder_count++;
    add_path(list, folder);
    return 0;
}

static readable_t *gather_readable(const char *const *given, size_t count, int with_own_proc) {
    readable_t *list = calloc(1, sizeof *list);
    if (list == NULL) return NULL;
    for (size_t i = 0; i < count; i++) add_path(list, given[i]);
    for (size_t i = 0; i < sizeof system_readable / sizeof *system_readable; i++) add_path(list, system_readable[i]);
    if (with_own_proc) add_path(list, own_proc);
    dl_iterate_phdr(add_library_folder, list);
    return list;
}

/* A ruleset allowing reading `list`; its descriptor, or -1 with a sentence in `error`. */
static int build_ruleset(const readable_t *list, int abi, char *error, size_t capacity) {
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
    for (size_t i = 0; i < list->count; i++) {
        if (allow_reading(ruleset, list->paths[i], error, capacity) != 0) {
            close(ruleset);
            return -1;
        }
    }
    return ruleset;
}

int worker_sandbox_prepare_landlock(const char *const *readable, size_t count, char *error, size_t capacity) {
    int abi = worker_sandbox_landlock_abi();
    if (abi == 0) {
        snprintf(error, capacity, "this kernel has no Landlock");
        return -1;
    }
    readable_t *list = gather_readable(readable, count, 0);
    if (list == NULL) return fail(error, capacity, "cannot list what may be read");
    int ruleset = build_ruleset(list, abi, error, capacity);
    free(list);
    return ruleset;
}

/* Enters `ruleset` (built before the file view: its rules name the machine's inodes, which the view's
 * bindings share), then closes it unless it is the caller's. */
static int apply_landlock(const worker_sandbox_config_t *config, int ruleset, char *error, size_t capacity) {
    int rc = syscall(SYS_landlock_restrict_self, ruleset, 0) == 0 ? 0 : fail(error, capacity, "cannot enter the Landlock domain");
    if (ruleset != config->landlock_ruleset) close(ruleset);
    return rc;
}

/* --- Namespaces ---------------------------------------------------------------------------- */

/* Writes `text` to `path` (a /proc file of this process's). */
static int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Network and mount namespaces of the process's own: /proc/self/net then
 * lists only its own sockets (none) instead of the machine's UNIX sockets,
 * abstract names included, connections and interfaces; and its file view
 * (file_view.c) holds only what it may read. As root, CAP_SYS_ADMIN is
 * enough; an ordinary user needs a user namespace first (one thread, as
 * here), mapping its own ids so that files can be made in the view.
 * Returns 1 when the namespaces were made, 0 when the system allows
 * neither (the process then goes on in the host's: seccomp still refuses
 * its sockets, and Landlock its reads; only looking at paths is left). */
static int own_namespaces(void) {
    if (unshare(CLONE_NEWNET | CLONE_NEWNS) == 0) return 1;
    uid_t uid = geteuid();
    gid_t gid = getegid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWNS) != 0) return 0;
    char map[64];
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
    int mapped = write_file("/proc/self/uid_map", map) == 0;
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
    mapped = mapped && write_file("/proc/self/setgroups", "deny") == 0 && write_file("/proc/self/gid_map", map) == 0;
    return mapped ? 1 : 0;
}

/* --- All of it ---------------------------------------------------------------------------- */

int worker_sandbox_enter(const worker_sandbox_config_t *config, worker_sandbox_applied_t *applied, char *error,
                         size_t error_capacity) {
    applied->landlock_abi = 0;
    applied->seccomp = 0;
    applied->listener = -1;
    readable_t *list = gather_readable(config->readable, config->readable_count, config->landlock_ruleset < 0);
    if (list == NULL) return fail(error, error_capacity, "cannot list what may be read");
    int rc = 0, abi = worker_sandbox_landlock_abi(), ruleset = config->landlock_ruleset;
    /* A supervisor's /proc: kept open, readable through Landlock, but left out of its view. */
    if (config->supervises_processes) {
        int proc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (proc < 0) rc = fail(error, error_capacity, "cannot open /proc");
        sandbox_set_proc_root(proc);
    }
    /* The rules are made before the view, from the machine's paths, /proc among them for a supervisor. */
    if (rc == 0 && abi > 0 && ruleset < 0) {
        size_t viewed = list->count;
        if (config->supervises_processes) add_path(list, "/proc");
        ruleset = build_ruleset(list, abi, error, error_capacity);
        list->count = viewed;
        if (ruleset < 0) rc = -1;
    }
    if (rc == 0 && config->own_namespaces && own_namespaces()) rc = sandbox_enter_view(list->paths, list->count, error, error_capacity);
    if (rc == 0) rc = apply_limits(config->memory_limit, error, error_capacity);
    if (rc == 0) rc = drop_capabilities(error, error_capacity);
    if (rc == 0 && abi > 0) {
        rc = apply_landlock(config, ruleset, error, error_capacity);
        applied->landlock_abi = rc == 0 ? abi : 0;
    } else if (ruleset >= 0 && ruleset != config->landlock_ruleset) {
        close(ruleset);
    }
    free(list);
    if (rc != 0) return -1;
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
