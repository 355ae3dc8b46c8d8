/* WorkerSandbox: the confinement a Segue worker enters before any plugin code
 * runs (constructors included), and the record through which it tells the
 * host what the plugin tried and was refused. Linux only; host-side and
 * worker-side, never seen by plugins.
 *
 * Layers, each holding if another is missing:
 *   - no capabilities (effective, permitted, inheritable, ambient, bounding),
 *     PR_SET_NO_NEW_PRIVS;
 *   - resource limits: address space, no core files, few descriptors; a
 *     thread limit kept by a supervisor (the host, or a scanner for the
 *     processes it forks) through seccomp user notification;
 *   - Landlock: read access only beneath the folders given; no writes
 *     anywhere; no TCP (ABI 4+); abstract UNIX sockets and signals scoped to
 *     the worker (ABI 6+);
 *   - seccomp-bpf: an allow-list of what a worker, the dynamic loader and the
 *     Swift runtime use; threads yes, processes no; this architecture's calls
 *     only (an i386 or x32 call is refused and named). A call outside it traps:
 *     the worker's SIGSYS handler records it in `worker_sandbox_record_t`
 *     (shared with the host) and makes it fail with EPERM, so the plugin can
 *     go on until the host, which reads the record after every call, ends it.
 *
 * Thread rules: `worker_sandbox_enter` must be called while the process has
 * one thread (Landlock binds the calling thread and what it starts later).
 * The probes are thread-safe. */
#ifndef WORKER_SANDBOX_H
#define WORKER_SANDBOX_H
#include <stddef.h>
#include <stdint.h>

/** What `worker_sandbox_record_t.magic` holds once a sandbox is entered: a
 * record without it was written over (the host then says so). */
#define WORKER_SANDBOX_MAGIC 0x53475342u /* "SGSB" */

/** Refusals the record keeps in full; later ones are only counted. */
#define WORKER_SANDBOX_RECORDED 8
/** Bytes of a refused call's path argument kept (execve's program), NUL included. */
#define WORKER_SANDBOX_TEXT 120

/** One refused system call. */
typedef struct {
    /** The system call's number, for this architecture. */
    uint32_t number;
    /** A scanner's load phase (LoadPhase) when the call was made; 0 in a serving worker,
     * whose host knows which call it was waiting for. */
    uint32_t during;
    /** Its six arguments, as the registers held them. */
    uint64_t arguments[6];
    /** execve's, execveat's or an open's path, copied (NUL-terminated, cut); empty otherwise. */
    char text[WORKER_SANDBOX_TEXT];
    /** The architecture the call was made for (AUDIT_ARCH_*): another than
     * this build's is an i386 call through `int $0x80`, say. */
    uint32_t arch;
} worker_sandbox_refusal_t;

/** What a worker tells its host about its sandbox, in shared memory. The
 * worker writes it, the plugin can too: the host copies and checks every field. */
typedef struct {
    /** WORKER_SANDBOX_MAGIC once the sandbox is entered; 0 before, and with no sandbox. */
    uint32_t magic;
    /** Refusals so far (may exceed WORKER_SANDBOX_RECORDED). */
    uint32_t count;
    /** Set by the worker as it goes; copied into each refusal. */
    uint32_t during;
    /** The thread limit in force (0: none), for the words of a refused thread. */
    uint32_t thread_limit;
    /** The address space in use (bytes) when a fatal signal arrived; 0 if none did. */
    uint64_t address_space_at_fault;
    /** The first WORKER_SANDBOX_RECORDED refusals. */
    worker_sandbox_refusal_t refusals[WORKER_SANDBOX_RECORDED];
} worker_sandbox_record_t;

/** What a worker's sandbox allows. Read during the call only. */
typedef struct {
    /** Files and folders the plugin may read (beneath each folder). The
     * system library folders, the folders of the libraries already loaded,
     * /etc/ld.so.cache and the worker's own /proc entry are added. */
    const char *const *readable;
    size_t readable_count;
    /** Address space limit in bytes (RLIMIT_AS); 0 for none. */
    uint64_t memory_limit;
    /** Where refusals and faults are recorded; must stay mapped for the life of the process. */
    worker_sandbox_record_t *record;
    /** Threads the process may have at once, its own included; 0 for no
     * limit. With a limit, every new thread waits until the supervisor
     * holding `applied.thread_listener` answers (worker_sandbox_answer_thread). */
    uint32_t thread_limit;
    /** 1 to leave the seccomp filter out: a scanner that forks a process per
     * file and runs no plugin code itself; each fork enters the whole sandbox. */
    int without_filter;
    /** A Landlock ruleset made ahead by worker_sandbox_prepare_landlock (the
     * caller keeps it), entered instead of one built from `readable`; -1 to
     * build one. */
    int landlock_ruleset;
    /** 1 to move into a network namespace of the process's own first (a new
     * user namespace too when it lacks CAP_SYS_ADMIN): /proc/self/net then
     * lists nothing of the machine's sockets, interfaces or connections. 0
     * for a process forked from one that did (a scanner's per-file process). */
    int own_network;
} worker_sandbox_config_t;

/** What `worker_sandbox_enter` applied. */
typedef struct {
    /** The Landlock ABI version used; 0 when the kernel has none. */
    int landlock_abi;
    /** 1 when the seccomp filter is installed. */
    int seccomp;
    /** With a thread limit and a filter: the seccomp notification descriptor
     * through which each new thread is asked for; hand it to the supervisor
     * and close it before plugin code runs. -1 otherwise. */
    int thread_listener;
} worker_sandbox_applied_t;

/**
 * Drops every right a plugin does not need, then installs the filter. Call
 * with one thread, before loading plugin code. A layer the kernel lacks
 * (Landlock, seccomp) is left out and said in `applied`; any other failure
 * returns -1 with a sentence in `error` (the process must not run plugin code
 * then). Returns 0 on success.
 */
int worker_sandbox_enter(const worker_sandbox_config_t *config, worker_sandbox_applied_t *applied, char *error,
                         size_t error_capacity);

/**
 * The supervisor's side of the thread limit: answers one request waiting on
 * `listener` (from worker_sandbox_enter) for process `pid`. A new thread is
 * allowed while the process has fewer than `limit` (its own included, as
 * /proc/PID/status counts them), and the answer waits until the thread shows
 * there, so that requests made at once are counted one after another. A
 * refused thread fails with EAGAIN, as pthread_create does at a limit, and
 * is noted in `record` as a refusal of clone. Returns 1 when allowed, 0 when
 * refused, -1 when no request could be read (the process is gone, or none
 * was waiting).
 */
int worker_sandbox_answer_thread(int listener, int pid, uint32_t limit, worker_sandbox_record_t *record);

/**
 * A Landlock ruleset for processes this one forks later, made once so that
 * each of them only enters it: reading beneath `readable`, the system's
 * folders and those of the libraries loaded now; no /proc entry (opened
 * here, "/proc/self" would be this process's, not theirs). Returns its
 * descriptor, or -1 with a sentence in `error` (also when the kernel has no
 * Landlock).
 */
int worker_sandbox_prepare_landlock(const char *const *readable, size_t count, char *error, size_t capacity);

/** The Landlock ABI version this kernel offers, 0 when none (not built in, or disabled). */
int worker_sandbox_landlock_abi(void);

/** 1 when this kernel has seccomp filters, 0 when not. */
int worker_sandbox_seccomp_available(void);

/** Marks this process non-dumpable (PR_SET_DUMPABLE 0): processes of the same
 * user without CAP_SYS_PTRACE can no longer trace it or open its /proc/PID/mem.
 * Returns 0, or -1 with errno set. */
int worker_sandbox_make_host_untraceable(void);

/** The name of system call `number` on this architecture, for the calls a
 * sandbox refusal usually names; NULL for others. */
const char *worker_sandbox_call_name(uint32_t number);

/** This build's architecture (AUDIT_ARCH_X86_64 or AUDIT_ARCH_AARCH64), and
 * the name of `arch` ("i386", "x32"...; NULL for one this file does not know). */
uint32_t worker_sandbox_native_arch(void);
const char *worker_sandbox_arch_name(uint32_t arch, uint32_t number);

/** The numbers of the system calls a refusal is described by, for this architecture. */
typedef enum {
    WORKER_CALL_EXEC, WORKER_CALL_PROCESS, WORKER_CALL_TRACE, WORKER_CALL_SIGNAL, WORKER_CALL_SOCKET,
    WORKER_CALL_NETWORK, WORKER_CALL_OPEN, WORKER_CALL_IOCTL, WORKER_CALL_LIMITS, WORKER_CALL_SIGNAL_HANDLER,
    WORKER_CALL_KERNEL, WORKER_CALL_FILES, WORKER_CALL_THREADS, WORKER_CALL_SIGNAL_OWNER, WORKER_CALL_LOCK,
    WORKER_CALL_PAGE_CACHE, WORKER_CALL_OTHER,
} worker_call_kind_t;

/** What kind of attempt system call `number` (with `arguments`), made for
 * this build's architecture, is. */
worker_call_kind_t worker_sandbox_call_kind(uint32_t number, const uint64_t *arguments);

#endif
