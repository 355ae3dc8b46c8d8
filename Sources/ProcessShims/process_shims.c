#define _GNU_SOURCE
#include "process_shims.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

int process_shims_shared_memory(const char *name, size_t size) {
    int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    /* Sealed at its size: a worker that shrank it would make the host's next read of it a SIGBUS. */
    if (ftruncate(fd, (off_t)size) != 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int process_shims_spawn(const char *path, char *const argv[], char *const envp[], const int *fds, int fd_count,
                        int output, pid_t *pid) {
    posix_spawn_file_actions_t actions;
    int rc = posix_spawn_file_actions_init(&actions);
    if (rc != 0) return rc;
    /* dup2 onto a slot another source still needs would clobber it: move every source first to slots above
     * both the targets and every source (a source may itself be a high number, with many descriptors open). */
    int high = 3 + fd_count;
    for (int i = 0; i < fd_count; i++)
        if (fds[i] >= high) high = fds[i] + 1;
    if (output >= high) high = output + 1;
    for (int i = 0; i < fd_count && rc == 0; i++) rc = posix_spawn_file_actions_adddup2(&actions, fds[i], high + i);
    if (rc == 0) rc = posix_spawn_file_actions_adddup2(&actions, output, high + fd_count);
    if (rc == 0) rc = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (rc == 0) rc = posix_spawn_file_actions_adddup2(&actions, high + fd_count, 1);
    if (rc == 0) rc = posix_spawn_file_actions_adddup2(&actions, high + fd_count, 2);
    for (int i = 0; i < fd_count && rc == 0; i++) rc = posix_spawn_file_actions_adddup2(&actions, high + i, 3 + i);
    if (rc == 0) rc = posix_spawn_file_actions_addclosefrom_np(&actions, 3 + fd_count);
    /* Its own session and process group: a kill(0, ...) or a terminal's signals reach it alone. */
    posix_spawnattr_t attributes;
    if (rc == 0) rc = posix_spawnattr_init(&attributes);
    if (rc == 0) {
        /* No signal blocked, whatever the starting thread blocks (a Dispatch thread blocks most). */
        sigset_t none;
        sigemptyset(&none);
        rc = posix_spawnattr_setsigmask(&attributes, &none);
        if (rc == 0) rc = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK);
        if (rc == 0) rc = posix_spawn(pid, path, &actions, &attributes, argv, envp);
        posix_spawnattr_destroy(&attributes);
    }
    posix_spawn_file_actions_destroy(&actions);
    return rc;
}

int process_shims_symbol_is_function(const void *address) {
    Dl_info info;
    const ElfW(Sym) *symbol = NULL;
    if (!dladdr1(address, &info, (void **)&symbol, RTLD_DL_SYMENT) || symbol == NULL) return -1;
    int type = ELF64_ST_TYPE(symbol->st_info);
    return type == STT_FUNC || type == STT_GNU_IFUNC;
}

int process_shims_send_with_descriptor(int socket, const void *message, size_t size, int fd) {
    struct iovec part = { (void *)message, size };
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(int))];
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr m = { .msg_iov = &part, .msg_iovlen = 1 };
    if (fd >= 0) {
        m.msg_control = control.space;
        m.msg_controllen = sizeof control.space;
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof fd);
    }
    return sendmsg(socket, &m, MSG_NOSIGNAL) == (ssize_t)size ? 0 : -1;
}

long process_shims_receive_with_descriptor(int socket, void *message, size_t capacity, int *fd) {
    *fd = -1;
    struct iovec part = { message, capacity };
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(4 * sizeof(int))];
    } control;
    struct msghdr m = { .msg_iov = &part, .msg_iovlen = 1, .msg_control = control.space,
                        .msg_controllen = sizeof control.space };
    ssize_t got;
    do got = recvmsg(socket, &m, MSG_CMSG_CLOEXEC);
    while (got < 0 && errno == EINTR);
    if (got < 0) return -1;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c != NULL; c = CMSG_NXTHDR(&m, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int received;
            memcpy(&received, CMSG_DATA(c) + i * sizeof(int), sizeof received);
            if (*fd < 0) *fd = received;
            else close(received);
        }
    }
    return (long)got;
}

int process_shims_fork_tied(void) {
    pid_t parent = getpid();
    pid_t child = fork();
    if (child == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(0);
    }
    return child;
}

int process_shims_process_descriptor(int pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

void process_shims_close_from(int lowest) { syscall(SYS_close_range, (unsigned)lowest, ~0U, 0); }

void process_shims_store_release(unsigned *address, unsigned value) {
    __atomic_store_n(address, value, __ATOMIC_RELEASE);
}

unsigned process_shims_load_acquire(const unsigned *address) {
    return __atomic_load_n(address, __ATOMIC_ACQUIRE);
}

void process_shims_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

static int signal_pipe_write_end = -1;

static void write_signal_number(int signal_number) {
    int saved = errno;
    unsigned char byte = (unsigned char)signal_number;
    ssize_t written = write(signal_pipe_write_end, &byte, 1); /* full pipe: the signal is already pending there */
    (void)written;
    errno = saved;
}

int process_shims_signal_pipe(const int *signals, int count) {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC | O_NONBLOCK) != 0) return -1;
    signal_pipe_write_end = ends[1];
    struct sigaction action = {0};
    action.sa_handler = write_signal_number;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigset_t wanted;
    sigemptyset(&wanted);
    for (int i = 0; i < count; i++) {
        if (sigaction(signals[i], &action, NULL) != 0) return -1;
        sigaddset(&wanted, signals[i]);
    }
    /* A parent may have started us with these blocked (the mask survives exec): unblock them here. */
    pthread_sigmask(SIG_UNBLOCK, &wanted, NULL);
    return ends[0];
}

const char *process_shims_object_path(const void *address) {
    Dl_info info;
    return dladdr(address, &info) != 0 ? info.dli_fname : NULL;
}

int process_shims_poll(struct pollfd *fds, nfds_t count, const struct timespec *timeout) {
    return ppoll(fds, count, timeout, NULL);
}

static _Thread_local char thread_message_buffer[PROCESS_SHIMS_MESSAGE_CAPACITY];
static _Thread_local const char *thread_message;

char *process_shims_thread_message_buffer(void) { return thread_message_buffer; }

const char **process_shims_thread_message(void) { return &thread_message; }

int process_shims_die_with_host(int socket) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    /* A host gone before the call sent no signal, but its process's end closed its end of the socket first. */
    struct pollfd peer = { socket, POLLRDHUP, 0 };
    if (poll(&peer, 1, 0) < 0) return -1;
    return (peer.revents & (POLLRDHUP | POLLHUP | POLLERR)) ? -1 : 0;
}
