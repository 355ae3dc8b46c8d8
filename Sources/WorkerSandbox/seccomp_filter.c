/* The seccomp half of the worker's sandbox: an allow-list of system calls,
 * with argument checks where a call is harmless only on this process; every
 * other call waits for the supervisor (the host, or a scanner), which records
 * it out of the plugin's reach and refuses it. */
#define _GNU_SOURCE
#include "sandbox_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <time.h>
#include <sys/uio.h>
#include <unistd.h>

#if defined(__x86_64__)
#define SANDBOX_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SANDBOX_ARCH AUDIT_ARCH_AARCH64
#else
#error "the worker sandbox knows x86_64 and aarch64"
#endif

/* --- What is allowed ---------------------------------------------------------------------- */

/* Allowed whatever their arguments: what a worker, the dynamic loader, libc,
 * the Swift runtime (and Foundation, Dispatch) use to compute and answer.
 * The hot ones (a frame's round trip) first. */
static const int allowed[] = {
    SYS_sendto, SYS_recvfrom, SYS_ppoll, SYS_read, SYS_write, SYS_clock_gettime,
#ifdef SYS_poll
    SYS_poll,
#endif
    SYS_sendmsg, SYS_recvmsg, SYS_readv, SYS_writev, SYS_pread64, SYS_close, SYS_fstat, SYS_newfstatat, SYS_statx,
    SYS_lseek, SYS_mmap, SYS_mprotect, SYS_munmap, SYS_mremap, SYS_madvise, SYS_brk,
    SYS_rt_sigaction, SYS_rt_sigprocmask, SYS_rt_sigreturn, SYS_rt_sigpending, SYS_rt_sigsuspend, SYS_rt_sigtimedwait, SYS_sigaltstack,
    SYS_set_robust_list, SYS_get_robust_list, SYS_rseq, SYS_set_tid_address, SYS_exit, SYS_exit_group, SYS_restart_syscall,
    SYS_getpid, SYS_gettid, SYS_getppid, SYS_getuid, SYS_geteuid, SYS_getgid, SYS_getegid, SYS_getresuid, SYS_getresgid,
    SYS_getgroups, SYS_getpgid, SYS_getsid, SYS_capget, SYS_getrandom, SYS_clock_getres, SYS_clock_nanosleep,
    SYS_nanosleep, SYS_gettimeofday, SYS_sched_yield, SYS_sched_getaffinity, SYS_sched_getparam,
    SYS_sched_getscheduler, SYS_sched_get_priority_max, SYS_sched_get_priority_min, SYS_getpriority, SYS_getrusage, SYS_times,
    SYS_uname, SYS_sysinfo, SYS_getcwd, SYS_getdents64, SYS_dup, SYS_dup3, SYS_pipe2, SYS_pselect6,
    SYS_epoll_create1, SYS_epoll_ctl, SYS_epoll_pwait, SYS_eventfd2, SYS_timerfd_create, SYS_timerfd_settime,
    SYS_timerfd_gettime, SYS_getsockopt, SYS_membarrier, SYS_readlinkat, SYS_faccessat, SYS_fstatfs,
    SYS_statfs,
#ifdef SYS_faccessat2
    SYS_faccessat2,
#endif
#ifdef SYS_epoll_pwait2
    SYS_epoll_pwait2,
#endif
#if defined(__x86_64__)
    SYS_arch_prctl, SYS_time, SYS_dup2, SYS_pipe, SYS_select, SYS_epoll_wait, SYS_readlink, SYS_access, SYS_stat,
    SYS_lstat, SYS_getpgrp,
#endif
};

/* Terminal and descriptor queries libc makes (isatty, stdio); a terminal's
 * other requests (TIOCSTI types into the host's terminal) are refused. */
static const uint32_t ioctl_allowed[] = { TCGETS, TIOCGWINSZ, FIONREAD, FIONBIO, FIOCLEX, FIONCLEX };

/* prctl options the runtimes use: naming threads and mappings, reading state. */
static const uint32_t prctl_allowed[] = { PR_SET_NAME, PR_GET_NAME, PR_GET_DUMPABLE, PR_CAPBSET_READ, PR_GET_SECCOMP,
                                          PR_GET_NO_NEW_PRIVS,
#ifdef PR_SET_VMA
                                          PR_SET_VMA,
#endif
};

/* fcntl commands that direct a signal at a process (one given, or the owner
 * of a lease or a watched folder), and record locks, which every process
 * that can read the file sees (a channel between plugins): every other
 * command is this process's own. (flock, mincore, fadvise64, readahead and
 * cachestat, which share locks or the page cache, are not allowed at all.) */
static const uint32_t fcntl_refused[] = { F_SETOWN, F_SETSIG, F_SETOWN_EX, F_SETLEASE, F_NOTIFY,
                                          F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW };

/* --- The filter ---------------------------------------------------------------------------- */

/* What a call outside the allow-list gets: it waits for the supervisor's answer. */
#define REFUSE SECCOMP_RET_USER_NOTIF

#define FILTER_CAPACITY 512
static struct sock_filter program[FILTER_CAPACITY];
static unsigned length;

static void emit(struct sock_filter instruction) {
    if (length < FILTER_CAPACITY) program[length++] = instruction;
    else length = FILTER_CAPACITY + 1; /* over: fails the build */
}

#define LOAD(offset) emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (offset)))
#define RETURN(action) emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, (action)))
#define NR_OFFSET offsetof(struct seccomp_data, nr)
/* The low 32 bits of argument `i` (little-endian): what the kernel reads of an int or unsigned argument. */
#define ARG_OFFSET(i) (offsetof(struct seccomp_data, args) + 8 * (i))

/* if (A == value) return action; */
static void return_if_equal(uint32_t value, uint32_t action) {
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 0, 1));
    RETURN(action);
}

/* For call `nr`: allow when argument `arg` is one of `values`, else refuse. */
static void allow_with_argument_in(int nr, int arg, const uint32_t *values, unsigned count) {
    /* if (nr != call) skip the block (every path in it returns): the load, the tests, the refusal */
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, (uint8_t)(1 + count * 2 + 1)));
    LOAD(ARG_OFFSET(arg));
    for (unsigned i = 0; i < count; i++) return_if_equal(values[i], SECCOMP_RET_ALLOW);
    RETURN(REFUSE);
}

/* For call `nr`: refuse when argument `arg` is one of `values`, else allow. */
static void allow_with_argument_not_in(int nr, int arg, const uint32_t *values, unsigned count) {
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, (uint8_t)(1 + count * 2 + 1)));
    LOAD(ARG_OFFSET(arg));
    for (unsigned i = 0; i < count; i++) return_if_equal(values[i], REFUSE);
    RETURN(SECCOMP_RET_ALLOW);
}

/* For call `nr`: refuse when argument `arg` has any bit of `refused` set, else allow. */
static void allow_without_bits(int nr, int arg, uint32_t refused) {
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 4));
    LOAD(ARG_OFFSET(arg));
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, refused, 0, 1));
    RETURN(REFUSE);
    RETURN(SECCOMP_RET_ALLOW);
}

/* Jumps out of the search tree to what follows it, patched once the tree is laid out. */
#define TREE_EXITS 128
static unsigned tree_exits[TREE_EXITS];
static unsigned tree_exit_count;

/* A binary search over `sorted` (ascending), allowing a call found there, falling through (by a jump
 * patched later) to what follows the tree otherwise: a call costs a few comparisons instead of one per
 * entry, and so does the kernel's check of every call number when the filter is installed (its cache of
 * calls always allowed), which made installing a filter cost more than a scanner's whole fork. */
static void emit_tree(const uint32_t *sorted, unsigned n) {
    if (n <= 8) {
        /* A leaf: each comparison jumps to one shared return, past the jump out of the tree. */
        for (unsigned i = 0; i < n; i++) emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, sorted[i], (uint8_t)(n - i), 0));
        if (tree_exit_count < TREE_EXITS) tree_exits[tree_exit_count++] = length;
        emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA | BPF_K, 0, 0, 0));
        RETURN(SECCOMP_RET_ALLOW);
        return;
    }
    unsigned mid = n / 2, at = length;
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, sorted[mid], 0, 0)); /* jt: the upper half, below */
    emit_tree(sorted, mid);
    unsigned skip = length - at - 1;
    if (skip > 255) length = FILTER_CAPACITY; /* too far for a conditional jump: fails the build */
    else if (at < FILTER_CAPACITY) program[at].jt = (uint8_t)skip;
    emit_tree(sorted + mid, n - mid);
}

static int ascending(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* futex's operation argument: its command, and the flag that keeps it to this process (FUTEX_PRIVATE_FLAG). */
#define FUTEX_COMMAND_MASK 0x7F
#define FUTEX_PRIVATE 0x80

static void build(uint32_t self, uint32_t thread_limit) {
    length = 0;
    LOAD(offsetof(struct seccomp_data, arch));
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SANDBOX_ARCH, 1, 0));
    RETURN(REFUSE); /* another architecture's call (i386 through int $0x80): refused, named by its arch */
    LOAD(NR_OFFSET);
#if defined(__x86_64__)
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000 /* __X32_SYSCALL_BIT */, 0, 1));
    RETURN(REFUSE);
#endif
    /* futex, the hottest call, first. A private futex is this process's own. A shared one on a page of a
     * file (a library every worker maps, say) is keyed by the file, so that two plugins could wait and
     * wake each other through it: a shared wake or requeue is refused and named; a shared wait returns at
     * once (EAGAIN, "the value changed"), which glibc's pthread_join, the one user of a shared wait (the
     * kernel wakes it when the thread ends), takes as a reason to look again. */
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_futex, 0, 8));
    LOAD(ARG_OFFSET(1));
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, FUTEX_PRIVATE, 0, 1));
    RETURN(SECCOMP_RET_ALLOW);
    emit((struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K, FUTEX_COMMAND_MASK));
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FUTEX_WAIT, 1, 0));
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FUTEX_WAIT_BITSET, 0, 1));
    RETURN(SECCOMP_RET_ERRNO | EAGAIN);
    RETURN(REFUSE);
    enum { ALLOWED = sizeof allowed / sizeof *allowed };
    uint32_t sorted[ALLOWED];
    for (unsigned i = 0; i < ALLOWED; i++) sorted[i] = (uint32_t)allowed[i];
    qsort(sorted, ALLOWED, sizeof *sorted, ascending);
    tree_exit_count = 0;
    emit_tree(sorted, ALLOWED);
    for (unsigned i = 0; i < tree_exit_count && tree_exits[i] < FILTER_CAPACITY; i++) program[tree_exits[i]].k = length - tree_exits[i] - 1;
    if (tree_exit_count == TREE_EXITS) length = FILTER_CAPACITY; /* fails the build */

    /* Threads, never processes: clone only with CLONE_THREAD and no new namespace; under a thread limit, a
     * thread waits for the supervisor to count it. */
    uint32_t thread = thread_limit > 0 ? REFUSE : SECCOMP_RET_ALLOW;
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 5));
    LOAD(ARG_OFFSET(0));
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K,
                                      CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER |
                                          CLONE_NEWPID | CLONE_NEWNET, 2, 0));
    emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1));
    RETURN(thread);
    RETURN(REFUSE);
    /* clone3 passes its flags in memory, which a filter cannot read: ENOSYS, and libc falls back to clone. */
    return_if_equal(SYS_clone3, SECCOMP_RET_ERRNO | ENOSYS);
    /* openat2 likewise (libc's open does not use it). */
    return_if_equal(SYS_openat2, SECCOMP_RET_ERRNO | ENOSYS);

    /* Signals to this process only. */
    uint32_t me[] = { self };
    allow_with_argument_in(SYS_kill, 0, me, 1);
    allow_with_argument_in(SYS_tgkill, 0, me, 1);
    allow_with_argument_in(SYS_rt_sigqueueinfo, 0, me, 1);
    allow_with_argument_in(SYS_rt_tgsigqueueinfo, 0, me, 1);
    /* Its own limits only (0 is "this process"): another's could be lowered to kill it. */
    uint32_t own[] = { 0, self };
    allow_with_argument_in(SYS_prlimit64, 0, own, 2);

    allow_with_argument_in(SYS_ioctl, 1, ioctl_allowed, sizeof ioctl_allowed / sizeof *ioctl_allowed);
    allow_with_argument_not_in(SYS_fcntl, 1, fcntl_refused, sizeof fcntl_refused / sizeof *fcntl_refused);
    allow_with_argument_in(SYS_prctl, 0, prctl_allowed, sizeof prctl_allowed / sizeof *prctl_allowed);

    /* Files open for reading only (Landlock says which); a write is refused and named even without Landlock. */
    uint32_t writing = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND;
    allow_without_bits(SYS_openat, 2, writing);
#if defined(__x86_64__)
    allow_without_bits(SYS_open, 1, writing);
#endif
    RETURN(REFUSE);
}

int sandbox_install_filter(uint32_t thread_limit) {
    build((uint32_t)getpid(), thread_limit);
    if (length >= FILTER_CAPACITY) {
        errno = E2BIG;
        return -1;
    }
    struct sock_fprog fprog = { (unsigned short)length, program };
    /* No TSYNC (which a listener cannot have before Linux 5.7): the process has one thread. */
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &fprog);
}

/* --- The supervisor ------------------------------------------------------------------------ */

static int proc_root = -1;

void sandbox_set_proc_root(int fd) { proc_root = fd; }

/* Threads of process `pid` now, from /proc/PID/status; -1 when it cannot be read. */
static int threads_of(int pid) {
    char path[64], text[4096];
    snprintf(path, sizeof path, proc_root >= 0 ? "%d/status" : "/proc/%d/status", pid);
    int fd = proc_root >= 0 ? openat(proc_root, path, O_RDONLY | O_CLOEXEC) : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return -1;
    text[n] = 0;
    const char *line = strstr(text, "\nThreads:");
    return line ? atoi(line + 9) : -1;
}

/* A path argument, copied for the host: execve's program, an open's file. */
static int path_argument(uint32_t number) {
    switch (number) {
    case SYS_execve: return 0;
    case SYS_execveat: return 1;
    case SYS_openat: return 1;
#if defined(__x86_64__)
    case SYS_open: return 0;
    case SYS_creat: return 0;
#endif
    default: return -1;
    }
}

/* Copies the string at `address` in process `pid` into `text` (cut, NUL-terminated; empty when it cannot
 * be read). Only words come of it: what the plugin's memory holds is its to choose. */
static void copy_text(int pid, uint64_t address, char *text, size_t capacity) {
    text[0] = 0;
    struct iovec local = { text, capacity - 1 }, remote = { (void *)(uintptr_t)address, capacity - 1 };
    ssize_t n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
    if (n < 0) { /* the string may end before a page the process has not mapped: a byte at a time then */
        for (n = 0; (size_t)n < capacity - 1; n++) {
            struct iovec one = { text + n, 1 }, from = { (void *)(uintptr_t)(address + (uint64_t)n), 1 };
            if (process_vm_readv(pid, &one, 1, &from, 1, 0) != 1 || text[n] == 0) break;
        }
    }
    text[n > 0 ? (size_t)n : 0] = 0;
}

/* Notes refused call `request` of process `pid` in `record`, then publishes it (the count last, released):
 * a reader (worker_sandbox_copy_record) sees the refusal complete, before the call is answered. */
static void record_refusal(worker_sandbox_record_t *record, int listener, int pid, const struct seccomp_notif *request,
                           uint32_t thread_limit, uint32_t during) {
    uint32_t index = __atomic_load_n(&record->count, __ATOMIC_RELAXED);
    if (index < WORKER_SANDBOX_RECORDED) {
        worker_sandbox_refusal_t *refusal = &record->refusals[index];
        const struct seccomp_data *call = &request->data;
        refusal->number = (uint32_t)call->nr;
        refusal->arch = call->arch;
        refusal->during = during;
        memcpy(refusal->arguments, call->args, sizeof refusal->arguments);
        int arg = call->arch == SANDBOX_ARCH ? path_argument(refusal->number) : -1;
        refusal->text[0] = 0;
        if (arg >= 0) {
            /* Read while the call waits; then the request must still be the one waiting (its process, not a
             * successor given its pid). */
            copy_text(pid, call->args[arg], refusal->text, sizeof refusal->text);
            __u64 id = request->id;
            if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) != 0) refusal->text[0] = 0;
        }
    }
    record->thread_limit = thread_limit;
    __atomic_store_n(&record->count, index + 1, __ATOMIC_RELEASE);
}

void worker_sandbox_copy_record(const worker_sandbox_record_t *record, worker_sandbox_record_t *copy) {
    memset(copy, 0, sizeof *copy);
    copy->count = __atomic_load_n(&record->count, __ATOMIC_ACQUIRE);
    copy->thread_limit = record->thread_limit;
    uint32_t complete = copy->count < WORKER_SANDBOX_RECORDED ? copy->count : WORKER_SANDBOX_RECORDED;
    memcpy(copy->refusals, record->refusals, complete * sizeof *copy->refusals);
}

int worker_sandbox_answer(int listener, int pid, uint32_t thread_limit, uint32_t during, worker_sandbox_record_t *record) {
    struct seccomp_notif request;
    memset(&request, 0, sizeof request);
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &request) != 0) return -1;
    struct seccomp_notif_resp answer;
    memset(&answer, 0, sizeof answer);
    answer.id = request.id;
    int thread = request.data.arch == SANDBOX_ARCH && request.data.nr == SYS_clone && (request.data.args[0] & CLONE_THREAD);
    int before = thread ? threads_of(pid) : -1;
    int allowed = thread && (thread_limit == 0 || (before >= 0 && (uint32_t)before < thread_limit));
    if (allowed) {
        answer.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
    } else {
        answer.error = thread ? -EAGAIN : -EPERM;
        record_refusal(record, listener, pid, &request, thread_limit, during);
    }
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &answer) != 0) return -1;
    /* The next request is counted once this thread shows (a few microseconds; at most 10 ms if it failed). */
    for (int i = 0; allowed && before >= 0 && i < 2000 && threads_of(pid) == before; i++) {
        struct timespec pause = { 0, 5000 };
        nanosleep(&pause, NULL);
    }
    return allowed;
}

int worker_sandbox_seccomp_available(void) {
    uint32_t action = SECCOMP_RET_USER_NOTIF;
    return syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

/* --- Faults -------------------------------------------------------------------------------- */

static worker_sandbox_note_t *note;

/* The address space in use, from /proc/self/statm (pages), with system calls only. */
static uint64_t address_space(void) {
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char text[64];
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    uint64_t pages = 0;
    for (ssize_t i = 0; i < n && text[i] >= '0' && text[i] <= '9'; i++) pages = pages * 10 + (uint64_t)(text[i] - '0');
    return pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* A fatal signal: note how much memory was in use (a plugin that ran out of
 * its limit usually dies of the NULL it was given), then die of it. */
static void on_fatal_signal(int signal_number, siginfo_t *info, void *context) {
    (void)signal_number; (void)info; (void)context;
    int saved = errno;
    note->address_space_at_fault = address_space();
    errno = saved;
    /* SA_RESETHAND: returning re-runs the fault (or abort raises again) with the default action. */
}

static char alternate_stack[64 * 1024]; /* the handlers run even after a stack overflow */

int sandbox_watch_faults(worker_sandbox_note_t *shared) {
    note = shared;
    stack_t stack = { .ss_sp = alternate_stack, .ss_size = sizeof alternate_stack, .ss_flags = 0 };
    if (sigaltstack(&stack, NULL) != 0) return -1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_sigaction = on_fatal_signal;
    action.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_ONSTACK;
    const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
    for (unsigned i = 0; i < sizeof fatal / sizeof *fatal; i++)
        if (sigaction(fatal[i], &action, NULL) != 0) return -1;
    return 0;
}

/* --- Naming ------------------------------------------------------------------------------ */

const char *worker_sandbox_call_name(uint32_t number) {
    switch (number) {
#define NAME(call) case SYS_##call: return #call;
    NAME(execve) NAME(execveat) NAME(clone) NAME(clone3) NAME(ptrace) NAME(process_vm_readv) NAME(process_vm_writev)
    NAME(kill) NAME(tgkill) NAME(tkill) NAME(rt_sigqueueinfo) NAME(rt_tgsigqueueinfo) NAME(pidfd_open)
    NAME(pidfd_send_signal) NAME(pidfd_getfd) NAME(socket) NAME(socketpair) NAME(connect) NAME(bind) NAME(listen)
    NAME(accept) NAME(accept4) NAME(openat) NAME(openat2) NAME(ioctl) NAME(prlimit64) NAME(setrlimit)
    NAME(rt_sigaction) NAME(mount) NAME(umount2) NAME(pivot_root) NAME(chroot) NAME(bpf) NAME(keyctl) NAME(add_key)
    NAME(request_key) NAME(io_uring_setup) NAME(io_uring_enter) NAME(io_uring_register) NAME(perf_event_open)
    NAME(userfaultfd) NAME(setns) NAME(unshare) NAME(prctl) NAME(seccomp) NAME(ftruncate) NAME(truncate)
    NAME(fallocate) NAME(unlinkat) NAME(renameat) NAME(mkdirat) NAME(memfd_create) NAME(mknodat) NAME(setuid)
    NAME(setgid) NAME(setresuid) NAME(setresgid) NAME(capset) NAME(personality) NAME(chdir) NAME(fchdir)
    NAME(symlinkat) NAME(linkat) NAME(fchmodat) NAME(fchownat) NAME(sched_setaffinity) NAME(setpriority)
    NAME(sched_setattr) NAME(sched_setscheduler) NAME(sched_setparam)
    NAME(sendfile) NAME(splice) NAME(reboot) NAME(init_module) NAME(finit_module) NAME(kcmp) NAME(landlock_create_ruleset)
    NAME(fcntl) NAME(flock) NAME(mincore) NAME(fadvise64) NAME(readahead) NAME(futex)
#ifdef SYS_futex_waitv
    NAME(futex_waitv)
#endif
#ifdef SYS_cachestat
    NAME(cachestat)
#endif
#if defined(__x86_64__)
    NAME(fork) NAME(vfork) NAME(open) NAME(creat) NAME(unlink) NAME(rename) NAME(mkdir) NAME(chmod) NAME(chown)
#endif
#undef NAME
    default: return NULL;
    }
}

worker_call_kind_t worker_sandbox_call_kind(uint32_t number, const uint64_t *arguments) {
    switch (number) {
    case SYS_execve: case SYS_execveat: return WORKER_CALL_EXEC;
#if defined(__x86_64__)
    case SYS_fork: case SYS_vfork: return WORKER_CALL_PROCESS;
    case SYS_open: case SYS_creat: return WORKER_CALL_OPEN;
    case SYS_unlink: case SYS_rename: case SYS_mkdir: case SYS_chmod: case SYS_chown: return WORKER_CALL_FILES;
#endif
    case SYS_clone: return arguments[0] & CLONE_THREAD ? WORKER_CALL_THREADS : WORKER_CALL_PROCESS;
    case SYS_clone3: return WORKER_CALL_PROCESS;
    case SYS_fcntl:
        switch (arguments[1]) {
        case F_GETLK: case F_SETLK: case F_SETLKW: case F_OFD_GETLK: case F_OFD_SETLK: case F_OFD_SETLKW:
            return WORKER_CALL_LOCK;
        default: return WORKER_CALL_SIGNAL_OWNER;
        }
    case SYS_flock: return WORKER_CALL_LOCK;
    case SYS_mincore: case SYS_fadvise64: case SYS_readahead:
#ifdef SYS_cachestat
    case SYS_cachestat:
#endif
        return WORKER_CALL_PAGE_CACHE;
    case SYS_ptrace: case SYS_process_vm_readv: case SYS_process_vm_writev: case SYS_pidfd_getfd: case SYS_kcmp:
        return WORKER_CALL_TRACE;
    case SYS_kill: case SYS_tgkill: case SYS_tkill: case SYS_rt_sigqueueinfo: case SYS_rt_tgsigqueueinfo:
    case SYS_pidfd_open: case SYS_pidfd_send_signal:
        return WORKER_CALL_SIGNAL;
    case SYS_socket: case SYS_socketpair: return WORKER_CALL_SOCKET;
    case SYS_connect: case SYS_bind: case SYS_listen: case SYS_accept: case SYS_accept4: return WORKER_CALL_NETWORK;
    case SYS_openat: case SYS_openat2: return WORKER_CALL_OPEN;
    case SYS_ioctl: return WORKER_CALL_IOCTL;
    case SYS_prlimit64: case SYS_setrlimit: return WORKER_CALL_LIMITS;
    case SYS_setpriority: case SYS_sched_setattr: case SYS_sched_setscheduler: case SYS_sched_setparam:
        return WORKER_CALL_PRIORITY;
    case SYS_futex:
#ifdef SYS_futex_waitv
    case SYS_futex_waitv:
#endif
        return WORKER_CALL_SHARED_FUTEX;
    case SYS_mount: case SYS_umount2: case SYS_pivot_root: case SYS_chroot: case SYS_bpf: case SYS_keyctl:
    case SYS_add_key: case SYS_request_key: case SYS_io_uring_setup: case SYS_io_uring_enter:
    case SYS_io_uring_register: case SYS_perf_event_open: case SYS_userfaultfd: case SYS_setns: case SYS_unshare:
    case SYS_seccomp: case SYS_reboot: case SYS_init_module: case SYS_finit_module: case SYS_landlock_create_ruleset:
        return WORKER_CALL_KERNEL;
    case SYS_ftruncate: case SYS_truncate: case SYS_fallocate: case SYS_unlinkat: case SYS_renameat:
    case SYS_mkdirat: case SYS_mknodat: case SYS_symlinkat: case SYS_linkat: case SYS_fchmodat: case SYS_fchownat:
        return WORKER_CALL_FILES;
    default: return WORKER_CALL_OTHER;
    }
}

uint32_t worker_sandbox_native_arch(void) { return SANDBOX_ARCH; }

const char *worker_sandbox_arch_name(uint32_t arch, uint32_t number) {
    switch (arch) {
    case AUDIT_ARCH_X86_64: return number & 0x40000000 ? "x32" : "x86-64";
    case AUDIT_ARCH_I386: return "i386";
    case AUDIT_ARCH_AARCH64: return "aarch64";
    case AUDIT_ARCH_ARM: return "32-bit ARM";
    default: return NULL;
    }
}
