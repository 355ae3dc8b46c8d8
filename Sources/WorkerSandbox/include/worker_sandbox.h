/* WorkerSandbox: the confinement a Segue worker enters before any plugin code
 * runs (constructors included), and the supervisor's side of it, through
 * which the host learns what the plugin tried and was refused. Linux only;
 * host-side and worker-side, never seen by plugins.
 *
 * Layers, each holding if another is missing:
 *   - network and mount namespaces of its own (with a user namespace first
 *     when not privileged): no machine's sockets in /proc/self/net, and a
 *     root holding only what the process may read;
 *   - no capabilities (effective, permitted, inheritable, ambient, bounding),
 *     PR_SET_NO_NEW_PRIVS;
 *   - resource limits: address space, no core files, few descriptors;
 *   - Landlock: read access only beneath the folders given; no writes
 *     anywhere; no TCP (ABI 4+); abstract UNIX sockets and signals scoped to
 *     the worker (ABI 6+);
 *   - seccomp-bpf: an allow-list of what a worker, the dynamic loader and the
 *     Swift runtime use; threads yes, processes no; this architecture's calls
 *     only. A call outside it waits for a supervisor in another process (the
 *     host, or the scanner for the processes it forks) through seccomp user
 *     notification: the supervisor notes it in a record in its own memory,
 *     where no plugin code can write, and makes it fail with EPERM, so the
 *     plugin can go on until the host, which reads the record after every
 *     call, ends it. New threads past the thread limit are refused the same
 *     way (EAGAIN).
 *
 * Thread rules: `worker_sandbox_enter` must be called while the process has
 * one thread (Landlock binds the calling thread and what it starts later).
 * `worker_sandbox_answer` is called by one thread per listener (the record's
 * one writer), `worker_sandbox_copy_record` by any; the probes are thread-safe. */
#ifndef WORKER_SANDBOX_H
#define WORKER_SANDBOX_H
#include <stddef.h>
#include <stdint.h>

/** What `worker_sandbox_note_t.magic` holds once a sandbox is entered: a
 * note without it was written over (the host then says so). */
#define WORKER_SANDBOX_MAGIC 0x53475342u /* "SGSB" */

/** Refusals the record keeps in full; later ones are only counted. */
#define WORKER_SANDBOX_RECORDED 8
/** Bytes of a refused call's path argument kept (execve's program), NUL included. */
#define WORKER_SANDBOX_TEXT 120

/** One refused system call, as its supervisor saw it. */
typedef struct {
    /** The system call's number, for `arch`. */
    uint32_t number;
    /** What the supervisor was told the process was doing (a scanner's
     * LoadPhase); 0 when its host knows which call it was waiting for. */
    uint32_t during;
    /** Its six arguments, as the registers held them. */
    uint64_t arguments[6];
    /** execve's, execveat's or an open's path, copied from the process
     * (NUL-terminated, cut; empty when it could not be read). */
    char text[WORKER_SANDBOX_TEXT];
    /** The architecture the call was made for (AUDIT_ARCH_*): another than
     * this build's is an i386 call through `int $0x80`, say. */
    uint32_t arch;
} worker_sandbox_refusal_t;

/** What the sandbox refused one process: kept by its supervisor, in the
 * supervisor's own memory (no plugin code can reach it), written by
 * `worker_sandbox_answer` only, read through `worker_sandbox_copy_record`.
 * Zero-filled to begin with. */
typedef struct {
    /** Refusals so far (may exceed WORKER_SANDBOX_RECORDED). */
    uint32_t count;
    /** The thread limit in force (0: none), for the words of a refused thread. */
    uint32_t thread_limit;
    /** The first WORKER_SANDBOX_RECORDED refusals. */
    worker_sandbox_refusal_t refusals[WORKER_SANDBOX_RECORDED];
} worker_sandbox_record_t;

/** What a worker notes about itself for its host, in shared memory. The
 * plugin can write it too: it only colours the words of a failure (the host
 * copies and checks it), and a note without its magic is named as written over. */
typedef struct {
    /** WORKER_SANDBOX_MAGIC once the sandbox is entered; 0 before, and with no sandbox. */
    uint32_t magic;
    uint32_t reserved;
    /** The address space in use (bytes) when a fatal signal arrived; 0 if none did. */
    uint64_t address_space_at_fault;
} worker_sandbox_note_t;

/** What a worker's sandbox allows. Read during the call only. */
typedef struct {
    /** Files and folders the plugin may read (beneath each folder). The
     * system library folders, the folders of the libraries already loaded,
     * /etc/ld.so.cache and the worker's own /proc entry are added. */
    const char *const *readable;
    size_t readable_count;
    /** Address space limit in bytes (RLIMIT_AS); 0 for none. */
    uint64_t memory_limit;
    /** Where the process notes its sandbox and its faults; must stay mapped for the life of the process. */
    worker_sandbox_note_t *note;
    /** Threads the process may have at once, its own included; 0 for no
     * limit. With a limit, every new thread waits until the supervisor
     * holding `applied.listener` answers (worker_sandbox_answer). */
    uint32_t thread_limit;
    /** 1 to leave the seccomp filter out: a scanner that forks a process per
     * file and runs no plugin code itself; each fork enters the whole sandbox. */
    int without_filter;
    /** A Landlock ruleset made ahead by worker_sandbox_prepare_landlock (the
     * caller keeps it), entered instead of one built from `readable`; -1 to
     * build one. */
    int landlock_ruleset;
    /** 1 to move into network and mount namespaces of the process's own
     * first (a new user namespace too when it lacks CAP_SYS_ADMIN):
     * /proc/self/net then lists nothing of the machine's sockets, interfaces
     * or connections, and the process's root holds only what it may read
     * (`readable` and the system's, bound read-only into an empty tmpfs), so
     * that `stat`, `readlink` and `access` find nothing else, and
     * /proc/self/mountinfo lists only those. 0 for a process forked from one
     * that did (a scanner's per-file process, which sees the scanner's). */
    int own_namespaces;
    /** 1 for a scanner, which supervises the processes it forks and counts
     * their threads in /proc: /proc is opened for it and may be read through
     * that descriptor, but is not in its file view, so the processes it forks
     * (which share the view) see no other process. */
    int supervises_processes;
} worker_sandbox_config_t;

/** What `worker_sandbox_enter` applied. */
typedef struct {
    /** The Landlock ABI version used; 0 when the kernel has none. */
    int landlock_abi;
    /** 1 when the seccomp filter is installed. */
    int seccomp;
    /** With the filter: the seccomp notification descriptor on which every
     * refused call (and each new thread, under a limit) waits for its
     * answer. Hand it to the supervisor and close it before plugin code runs:
     * until someone answers on it, such a call waits; once no one holds it,
     * such a call fails with ENOSYS, unrecorded. -1 without the filter. */
    int listener;
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
 * The supervisor's side: answers one call waiting on `listener` (from
 * worker_sandbox_enter) of process `pid`. A new thread is allowed while the
 * process has fewer than `thread_limit` (its own included, as /proc/PID/status
 * counts them), and the answer waits until the thread shows there, so that
 * requests made at once are counted one after another; a thread past the
 * limit fails with EAGAIN, as pthread_create does at a limit. Any other call
 * is refused (EPERM). Each refusal is noted in `record`, marked `during`,
 * with its path argument read from the process's memory. Returns 1 when a
 * thread was allowed, 0 when a call was refused, -1 when no call could be
 * read (the process is gone, or none was waiting).
 */
int worker_sandbox_answer(int listener, int pid, uint32_t thread_limit, uint32_t during, worker_sandbox_record_t *record);

/**
 * Copies `record` into `copy` while its supervisor may be answering (one
 * writer, any number of readers): the refusals counted are complete, each
 * published before its call was answered.
 */
void worker_sandbox_copy_record(const worker_sandbox_record_t *record, worker_sandbox_record_t *copy);

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
    WORKER_CALL_NETWORK, WORKER_CALL_OPEN, WORKER_CALL_IOCTL, WORKER_CALL_LIMITS, WORKER_CALL_KERNEL,
    WORKER_CALL_FILES, WORKER_CALL_THREADS, WORKER_CALL_SIGNAL_OWNER, WORKER_CALL_LOCK, WORKER_CALL_PAGE_CACHE,
    WORKER_CALL_SHARED_FUTEX, WORKER_CALL_PRIORITY, WORKER_CALL_OTHER,
} worker_call_kind_t;

/** What kind of attempt system call `number` (with `arguments`), made for
 * this build's architecture, is. */
worker_call_kind_t worker_sandbox_call_kind(uint32_t number, const uint64_t *arguments);

#endif
