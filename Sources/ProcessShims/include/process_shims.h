/* ProcessShims: the few Linux calls the isolation layer needs that Swift's
 * Glibc module leaves out (memfd_create, posix_spawn's closefrom). Host-only:
 * plugins never see it. Every function is thread-safe. */
#ifndef PROCESS_SHIMS_H
#define PROCESS_SHIMS_H
#include <stddef.h>
#include <sys/types.h>
#include <poll.h>
#include <time.h>

/**
 * An anonymous shared-memory file of `size` bytes (memfd_create), close-on-exec,
 * sealed against shrinking and growing (a worker cannot truncate it under the host).
 * Returns its descriptor, or -1 with errno set.
 */
int process_shims_shared_memory(const char *name, size_t size);

/**
 * Starts `path` with `argv` and `envp` (NULL-terminated) through posix_spawn.
 * In the child, standard input is /dev/null, standard output and standard
 * error are both `output` (a pipe this process reads: nothing of its own, its
 * terminal or its files, reaches the child), `fds[i]` becomes descriptor
 * 3 + i, and every other descriptor is closed. The child starts its own
 * session and process group (setsid), so that no signal meant for a group
 * reaches both, with no signal blocked (whatever the calling thread blocks).
 * Returns 0 and sets `*pid`, or an errno value.
 */
int process_shims_spawn(const char *path, char *const argv[], char *const envp[], const int *fds, int fd_count,
                        int output, pid_t *pid);

/**
 * Whether the symbol at `address` (from dlsym) is a function: 1 for a
 * function, 0 for data or any other kind, -1 when the dynamic loader cannot
 * tell. Calling a data symbol as a function would crash.
 */
int process_shims_symbol_is_function(const void *address);

/**
 * Sends `size` bytes of `message` on the socket `socket` with descriptor `fd`
 * attached (SCM_RIGHTS); `fd` -1 sends the message alone. Returns 0, or -1
 * with errno set. Never raises SIGPIPE.
 */
int process_shims_send_with_descriptor(int socket, const void *message, size_t size, int fd);

/**
 * Receives one message of at most `capacity` bytes from `socket` (blocking),
 * and the descriptor attached to it into `*fd` (close-on-exec; -1 when none,
 * extra ones are closed). Returns the bytes received, 0 at the end, or -1
 * with errno set.
 */
long process_shims_receive_with_descriptor(int socket, void *message, size_t capacity, int *fd);

/**
 * fork(), the child killed when this process dies (PR_SET_PDEATHSIG) and
 * ending at once if this process died before it could ask. For a process
 * with one thread. Returns as fork does.
 */
int process_shims_fork_tied(void);

/** A descriptor that becomes readable when process `pid` (a child) ends (pidfd_open); -1 with errno. */
int process_shims_process_descriptor(int pid);

/** Closes every descriptor from `lowest` up (close_range). */
void process_shims_close_from(int lowest);

/** Stores `value` at `address` with release ordering (shared memory between processes). */
void process_shims_store_release(unsigned *address, unsigned value);

/** Loads the value at `address` with acquire ordering. */
unsigned process_shims_load_acquire(const unsigned *address);

/** Tells the CPU this is a spin-wait loop (x86 PAUSE, ARM YIELD). */
void process_shims_spin_pause(void);

/**
 * Catches `signals` (SIGINT, SIGTERM...) by writing each one's number, as one
 * byte, to a pipe, and returns the pipe's read end (non-blocking,
 * close-on-exec), or -1 with errno set. The self-pipe trick: a program that
 * polls can then end cleanly on a signal. The signals are unblocked in the
 * calling thread (a parent may have started us with them blocked). Call it
 * once, from the main thread, before starting threads; children started
 * later get the default handlers back at exec.
 */
int process_shims_signal_pipe(const int *signals, int count);

/**
 * The path of the shared object (or executable) that holds `address`, as the
 * dynamic loader mapped it (dladdr), or NULL. Owned by the loader; valid
 * while the object stays loaded.
 */
const char *process_shims_object_path(const void *address);

/**
 * poll with a timeout in nanoseconds (ppoll, no signal mask change): NULL
 * waits forever. poll's whole milliseconds cannot say a wait under one.
 */
int process_shims_poll(struct pollfd *fds, nfds_t count, const struct timespec *timeout);

/**
 * Makes the calling process die (SIGKILL) when the host thread that started
 * it ends, which the kernel does however the host ends, killed outright
 * included, and whatever state this process is in, stopped included
 * (PR_SET_PDEATHSIG); then makes sure the host had not already gone, by
 * `socket`, its end of a socket to the host: -1 when the host's end is
 * closed (the caller should exit), 0 otherwise.
 */
int process_shims_die_with_host(int socket);

/** Bytes of the calling thread's message buffer, with the NUL. */
#define PROCESS_SHIMS_MESSAGE_CAPACITY 2048

/**
 * The calling thread's message buffer (PROCESS_SHIMS_MESSAGE_CAPACITY bytes)
 * and its current message (NULL for none, the buffer, or a string that lives
 * as long as the process), in thread-local storage: no thread's first message
 * allocates. Valid while the thread runs.
 */
char *process_shims_thread_message_buffer(void);
const char **process_shims_thread_message(void);

#endif
