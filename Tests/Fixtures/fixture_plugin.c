/*
 * A configurable test plugin in plain C: a crossfade that can be built with one
 * deliberate fault at a time (-DFAULT_...), so that the tests can check every
 * rejection, fallback and validator check against a real shared library. Built by the tests
 * with the system C compiler against the public header alone.
 *
 * Built with -DATTEMPT_... and ATTEMPT_AT (1 the constructor, 2 the entry
 * point, 3 setup, 4 evaluate), it tries instead to leave its sandbox: to
 * reach the host, the machine or the user's files. It logs what succeeded
 * ("ATTEMPT SUCCEEDED: ..."), so that the tests see what each attempt would
 * have done with the sandbox off.
 */
#define _GNU_SOURCE
#include "segue_animator.h"

#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Some faults leave a function or the plugin unused. */
#define FIXTURE_UNUSED __attribute__((unused))

#ifndef FIXTURE_ID
#define FIXTURE_ID "org.segue.test.fade/1"
#endif
#ifndef FIXTURE_PARAM_TYPE
#define FIXTURE_PARAM_TYPE SEGUE_PARAM_NUMBER /* a type number from a newer ABI, for the refusal test */
#endif
#ifndef FIXTURE_NAME
#define FIXTURE_NAME "TestFade"
#endif

/* Faults of a plugin that misbehaves the ways real ones do: each crashes,
 * aborts, exits, spins or prints at one point. */
#define FIXTURE_CRASH() (*(volatile int *)(uintptr_t)0 = 1)
#define FIXTURE_SPIN() do { volatile int spinning = 1; while (spinning) {} } while (0)
/* A report line a hostile plugin might try to plant in `segue run --json`. */
/* Text that reads otherwise than it is: a right-to-left override and its end,
 * isolates, an Arabic letter mark, zero-width characters, a line separator. */
#define FIXTURE_SPOOF "a" "\xe2\x80\xae" "b" "\xe2\x80\xac" "c" "\xe2\x81\xa6" "d" "\xe2\x81\xa9" "e" "\xd8\x9c" "f" \
    "\xe2\x80\x8b" "g" "\xe2\x80\x8d" "h" "\xef\xbb\xbf" "i" "\xe2\x80\xa8" "j"
#define FIXTURE_FAKE_REPORT "{\"animator\":\"Forged\",\"completed\":true,\"from\":\"photo\",\"to\":\"video\"}\n"

#ifdef FAULT_CHANGE_DESCRIPTOR
static void change_descriptor(void);
#endif

#ifdef ATTEMPT_AT
#include <sched.h>
#include <arpa/inet.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <errno.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static const segue_host_t *fixture_host;
#ifdef ATTEMPT_READ_SECRET
/* What a secret file held, packed into a number a layer value carries out. */
static double stolen;
#endif

FIXTURE_UNUSED static void report(const char *what) {
    char line[512];
    snprintf(line, sizeof line, "ATTEMPT SUCCEEDED: %s", what);
    if (fixture_host && SEGUE_HOST_HAS(fixture_host, log)) fixture_host->log(fixture_host, SEGUE_LOG_WARNING, line);
    else if (write(2, line, strlen(line)) < 0) return; /* the constructor has no host yet */
}

#if defined(ATTEMPT_NEIGHBOUR) || defined(ATTEMPT_SCRIBBLE)
/* The descriptor of the shared memory between a worker and its host (a memfd named segue-worker), or -1. */
static int shared_memory_descriptor(void) {
    for (int fd = 3; fd < 256; fd++) {
        char path[64], target[256];
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n <= 0) continue;
        target[n] = 0;
        if (strstr(target, "memfd:segue") != NULL) return fd;
    }
    return -1;
}
#endif
#ifdef ATTEMPT_HIDE
/* Every shared, writable mapping of this process (where a sandbox that keeps
 * its record in the process's own memory would keep it), copied, so that it
 * can be put back once the refused calls are made. */
struct saved_mapping { char *start; size_t size; char *copy; };
static int save_shared_mappings(struct saved_mapping *saved, int capacity) {
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    int kept = 0;
    while (maps && kept < capacity && fgets(line, sizeof line, maps)) {
        unsigned long start, end;
        char perms[5];
        if (sscanf(line, "%lx-%lx %4s", &start, &end, perms) != 3 || perms[1] != 'w' || perms[3] != 's') continue;
        char *copy = malloc(end - start);
        if (copy == NULL) continue;
        memcpy(copy, (char *)start, end - start);
        saved[kept++] = (struct saved_mapping){ (char *)start, end - start, copy };
    }
    if (maps) fclose(maps);
    return kept;
}
static void restore_shared_mappings(struct saved_mapping *saved, int kept) {
    for (int i = 0; i < kept; i++) {
        memcpy(saved[i].start, saved[i].copy, saved[i].size);
        free(saved[i].copy);
    }
}
#endif
#if defined(ATTEMPT_THREADS) || defined(ATTEMPT_FUTEX) || defined(ATTEMPT_SPIN_AFTER) || defined(ATTEMPT_SPIN_DURING)
#include <pthread.h>
#endif
#if defined(ATTEMPT_SPIN_AFTER) || defined(ATTEMPT_SPIN_DURING)
/* How long spinning threads wait before they compute (see ATTEMPT_SPIN_DURING's). */
#ifndef SPIN_DELAY_US
#define SPIN_DELAY_US 200000
#endif
#endif
#ifdef ATTEMPT_SPIN_DURING
#include <sched.h>
/* Threads that compute beside the plugin's calls while its transition plays (8, within the thread limit).
 * They begin SPIN_DELAY_US after setup starts them (0.2 s unless built with another): setup and the first
 * frames answer before they compete with them, within begin's 100 ms bound, on a busy machine too (the
 * worker runs ten nice levels down). They yield the processor as they compute: the plugin's calls still
 * answer in time on a busy machine (else it would be ended for a call past its deadline, not for this). */
static volatile int spin_during;
static void *spin_while_playing(void *unused) {
    usleep(SPIN_DELAY_US);
    volatile double x = 0;
    while (spin_during) {
        x += 1;
        sched_yield();
    }
    return unused;
}
#endif
#ifdef ATTEMPT_FUTEX
#include <errno.h>
#include <linux/futex.h>
#include <time.h>
static void *quick(void *unused) { return unused; }
#endif
#ifdef ATTEMPT_SPIN_AFTER
/* Threads that compute from setup on and after their transition is over, within the thread limit. They
 * begin SPIN_DELAY_US after setup starts them (0.2 s unless built with another), for the reason
 * ATTEMPT_SPIN_DURING's do (see there). */
static void *spinner(void *unused) {
    usleep(SPIN_DELAY_US);
    volatile double x = 0;
    for (;;) x += 1;
    return unused;
}
#endif
#ifdef ATTEMPT_THREADS
static void *sleeper(void *unused) {
    (void)unused;
    for (;;) sleep(1);
    return NULL;
}
#endif
#ifdef ATTEMPT_ENVIRONMENT
/* What the host's environment held, said in the description, a decline reason and a log line. */
static char environment_text[200] = "no secret in the environment";
#endif
#ifdef ATTEMPT_NEIGHBOUR
#include <dirent.h>
#include <link.h>
#include <pthread.h>
/* ATTEMPT_NEIGHBOUR names the victim ("SpringSlide"); it becomes the same length's "Tamper" name wherever this
 * plugin can reach it: in a library loaded beside it, and in an answer waiting in shared memory it can map. */
static char forged[sizeof ATTEMPT_NEIGHBOUR];
static int replace_all(char *start, size_t length) {
    int replaced = 0;
    size_t n = sizeof ATTEMPT_NEIGHBOUR - 1;
    for (size_t i = 0; i + n <= length; i++)
        if (start[i] == ATTEMPT_NEIGHBOUR[0] && memcmp(start + i, ATTEMPT_NEIGHBOUR, n) == 0) { memcpy(start + i, forged, n); replaced++; }
    return replaced;
}
static int patch_library(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    if (info->dlpi_name == NULL || strstr(info->dlpi_name, ATTEMPT_NEIGHBOUR) == NULL) return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type != PT_LOAD) continue;
        uintptr_t start = (info->dlpi_addr + info->dlpi_phdr[i].p_vaddr) & ~(uintptr_t)4095;
        uintptr_t end = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr + info->dlpi_phdr[i].p_memsz;
        if (mprotect((void *)start, end - start, PROT_READ | PROT_WRITE | PROT_EXEC) == 0)
            *(int *)data += replace_all((char *)start, end - start);
    }
    return 0;
}
static int patch_shared_memory(void) {
    int fd = shared_memory_descriptor();
    char *memory = fd < 0 ? MAP_FAILED : mmap(NULL, 32u << 20, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (memory == MAP_FAILED) return 0;
    int replaced = replace_all(memory, 32u << 20);
    munmap(memory, 32u << 20);
    return replaced;
}
static int tamper(void) {
    int replaced = patch_shared_memory();
    dl_iterate_phdr(patch_library, &replaced);
    return replaced;
}
/* Keeps at it while other files are examined, should they share this process. */
static void *tampering(void *unused) {
    (void)unused;
    for (int i = 0; i < 5000; i++) {
        if (tamper() > 0) report("rewrote a neighbour");
        usleep(1000);
    }
    return NULL;
}
#endif

static void attempt(void) {
#ifdef ATTEMPT_THREADS
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, 16384);
    int started = 0;
    for (; started < ATTEMPT_THREADS; started++) {
        pthread_t thread;
        if (pthread_create(&thread, &attributes, sleeper, NULL) != 0) break;
    }
    if (started == ATTEMPT_THREADS) report("started every thread");
#endif
#ifdef ATTEMPT_SETOWN
    int ends[2];
    if (pipe(ends) == 0) {
        /* SIGIO, whose default action ends a process, at the parent whenever the pipe has data. */
        if (fcntl(ends[0], F_SETOWN, getppid()) == 0 && fcntl(ends[0], F_SETFL, O_ASYNC | O_NONBLOCK) == 0 &&
            write(ends[1], "x", 1) == 1)
            report("directed SIGIO at the parent");
        close(ends[0]);
        close(ends[1]);
    }
#endif
#ifdef ATTEMPT_INT80
#if defined(__x86_64__)
    long pid;
    __asm__ volatile("int $0x80" : "=a"(pid) : "a"(20) /* i386 getpid */ : "memory");
    if (pid == getpid()) report("made an i386 system call");
#endif
#endif
#ifdef ATTEMPT_ENVIRONMENT
    const char *secret = getenv("SEGUE_TEST_SECRET");
    if (secret != NULL) {
        snprintf(environment_text, sizeof environment_text, "read the secret %s", secret);
        report(environment_text);
    }
#endif
#ifdef ATTEMPT_RAW_OUTPUT
    /* A clipboard write and a cleared screen, raw, on every descriptor; then what each descriptor is. */
    static const char raw[] = "\x1b]52;c;c2VjcmV0\x07\x1b[2J";
    for (int fd = 0; fd < 256; fd++)
        if (fd != 3 && write(fd, raw, sizeof raw - 1) == (ssize_t)(sizeof raw - 1) && fd > 2) report("wrote raw bytes to a descriptor beyond 2");
    for (int fd = 0; fd < 256; fd++) {
        char path[64], target[256], line[400];
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n <= 0) continue;
        target[n] = 0;
        snprintf(line, sizeof line, "DESCRIPTOR %d %s", fd, target);
        if (fixture_host && SEGUE_HOST_HAS(fixture_host, log)) fixture_host->log(fixture_host, SEGUE_LOG_INFO, line);
    }
#endif
#ifdef ATTEMPT_LOG_FLOOD
    /* ATTEMPT_LOG_FLOOD MiB of log (or of standard error, before the host is known). */
    static char chunk[4096];
    memset(chunk, 'A', sizeof chunk - 2);
    chunk[sizeof chunk - 2] = '\n';
    for (long i = 0; i < (long)ATTEMPT_LOG_FLOOD * 256; i++) {
        if (fixture_host && SEGUE_HOST_HAS(fixture_host, log)) fixture_host->log(fixture_host, SEGUE_LOG_INFO, chunk);
        else if (write(2, chunk, sizeof chunk - 1) < 0) break;
    }
#endif
#ifdef ATTEMPT_SCRIBBLE
    int shared = shared_memory_descriptor();
    char *memory = shared < 0 ? MAP_FAILED : mmap(NULL, 36u << 20, PROT_READ | PROT_WRITE, MAP_SHARED, shared, 0);
    if (memory != MAP_FAILED) memset(memory, 0xFF, 36u << 20);
#endif
#ifdef ATTEMPT_NEIGHBOUR
    memcpy(forged, "Tamper", 6);
    memcpy(forged + 6, ATTEMPT_NEIGHBOUR + 6, sizeof ATTEMPT_NEIGHBOUR - 6);
    if (tamper() > 0) report("rewrote a neighbour");
    pthread_t thread;
    pthread_create(&thread, NULL, tampering, NULL);
#endif
#ifdef ATTEMPT_KILL_PARENT
    if (kill(getppid(), SIGKILL) == 0) report("killed the parent");
#endif
#ifdef ATTEMPT_PTRACE_PARENT
    pid_t parent = getppid();
    if (ptrace(PTRACE_ATTACH, parent, 0, 0) == 0) {
        waitpid(parent, NULL, __WALL);
        report("attached to the parent");
        ptrace(PTRACE_DETACH, parent, 0, 0);
    }
#endif
#ifdef ATTEMPT_PARENT_MEMORY
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/mem", (int)getppid());
    int fd = open(path, O_RDWR);
    if (fd >= 0) {
        report("opened the parent's memory");
        close(fd);
    }
#endif
#ifdef ATTEMPT_READ_SECRET
    int fd = open(ATTEMPT_READ_SECRET, O_RDONLY);
    char secret[64] = { 0 };
    if (fd >= 0 && read(fd, secret, sizeof secret - 1) > 0) {
        char line[128];
        snprintf(line, sizeof line, "read the secret %s", secret);
        report(line);
        for (int i = 0; i < 6 && secret[i]; i++) stolen = stolen * 256 + (unsigned char)secret[i];
    }
    if (fd >= 0) close(fd);
#endif
#ifdef ATTEMPT_WRITE_FILE
    int fd = open(ATTEMPT_WRITE_FILE, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        if (write(fd, "written by a plugin\n", 20) == 20) report("wrote a file");
        close(fd);
    }
#endif
#ifdef ATTEMPT_SPIN_AFTER
    /* Once: two threads (SPIN_THREADS) that never stop, then setup answers as ever. */
#ifndef SPIN_THREADS
#define SPIN_THREADS 2
#endif
    static int spinning;
    for (; spinning < SPIN_THREADS; spinning++) {
        pthread_t thread;
        if (pthread_create(&thread, NULL, spinner, NULL) == 0) pthread_detach(thread);
    }
#endif
#ifdef ATTEMPT_SPIN_DURING
    /* Eight threads that compute until the transition ends, then setup answers as ever. */
    spin_during = 1;
    for (int i = 0; i < 8; i++) {
        pthread_t thread;
        if (pthread_create(&thread, NULL, spin_while_playing, NULL) == 0) pthread_detach(thread);
    }
#endif
#ifdef ATTEMPT_HOARD
    /* Once: memory in 16 MiB pieces, each touched, until no more is given (2 GiB at most), then the last two
     * given back so that the worker can still answer; the rest kept for as long as the worker lives. */
    static int hoarded;
    if (!hoarded) {
        static char *pieces[128];
        int n = 0;
        while (n < 128 && (pieces[n] = malloc(16u << 20)) != NULL) memset(pieces[n++], 1, 16u << 20);
        for (int i = 0; i < 2 && n > 0; i++) free(pieces[--n]);
        hoarded = n;
        char said[64];
        snprintf(said, sizeof said, "hoards %d MiB", n * 16);
        if (fixture_host && SEGUE_HOST_HAS(fixture_host, log)) fixture_host->log(fixture_host, SEGUE_LOG_INFO, said);
    }
#endif
#ifdef ATTEMPT_PRIORITY
    /* Says the priority it was given, then tries to take the processor back from the program it serves. */
    char said[64];
    errno = 0;
    int given = getpriority(PRIO_PROCESS, 0);
    int policy = sched_getscheduler(0);
    snprintf(said, sizeof said, "runs at nice %d under %s", errno == 0 ? given : -100,
             policy == SCHED_OTHER ? "SCHED_OTHER" : policy == SCHED_FIFO ? "SCHED_FIFO" : policy == SCHED_RR ? "SCHED_RR" : "another policy");
    if (fixture_host && SEGUE_HOST_HAS(fixture_host, log)) fixture_host->log(fixture_host, SEGUE_LOG_INFO, said);
    if (setpriority(PRIO_PROCESS, 0, 0) == 0 && getpriority(PRIO_PROCESS, 0) == 0) report("raised its priority to nice 0");
#endif
#ifdef ATTEMPT_CONNECT
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons(ATTEMPT_CONNECT) };
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&address, sizeof address) == 0) report("connected to the port");
    if (fd >= 0) close(fd);
#endif
#ifdef ATTEMPT_EXEC
    pid_t child = fork();
    if (child == 0) {
        execl("/bin/sh", "sh", "-c", "touch " ATTEMPT_EXEC, (char *)NULL);
        _exit(127);
    }
    if (child > 0 && waitpid(child, NULL, 0) == child) report("started a program");
#endif
#ifdef ATTEMPT_ALLOCATE
    /* 4 GiB in 64 MiB pieces, each touched; careless about NULL, as many plugins are. */
    for (int i = 0; i < 64; i++) {
        char *piece = malloc(64u << 20);
        memset(piece, 1, 64u << 20);
    }
    report("allocated and touched 4 GiB");
#endif
#ifdef ATTEMPT_HIDE
    /* Refused calls, between a copy of the shared memory and its return: ATTEMPT_HIDE is a file to write. */
    struct saved_mapping saved[32];
    int kept = save_shared_mappings(saved, 32);
    int hidden_socket = socket(AF_INET, SOCK_DGRAM, 0);
    int signalled = kill(getppid(), 0);
    int written = open(ATTEMPT_HIDE, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    restore_shared_mappings(saved, kept);
    if (hidden_socket >= 0 || signalled == 0 || written >= 0) report("made calls a sandbox refuses, then put its shared memory back");
    if (hidden_socket >= 0) close(hidden_socket);
    if (written >= 0) close(written);
#endif
#ifdef ATTEMPT_FUTEX
    /* A thread joined first (glibc waits on a shared futex for it: that must keep working), then a futex on a
     * page of a file every worker maps, keyed by the file: a wait there is seen by a wake in another process. */
    pthread_t joined;
    if (pthread_create(&joined, NULL, quick, NULL) == 0) pthread_join(joined, NULL);
    int cache = open("/etc/ld.so.cache", O_RDONLY);
    uint32_t *word = cache >= 0 ? mmap(NULL, 4096, PROT_READ, MAP_SHARED, cache, 0) : MAP_FAILED;
    if (word != MAP_FAILED) {
        struct timespec brief = { 0, 20 * 1000 * 1000 };
        long waited = syscall(SYS_futex, word, FUTEX_WAIT, *word, &brief, NULL, 0);
        if (waited != 0 && errno == ETIMEDOUT) report("waited on a futex other processes share");
        if (syscall(SYS_futex, word, FUTEX_WAKE, 1, NULL, NULL, 0) >= 0) report("woke a futex other processes share");
    }
    if (cache >= 0) close(cache);
#endif
#ifdef ATTEMPT_LOOK
    /* ATTEMPT_LOOK is a file outside the plugin's folder, with a link to it beside it (".link"): looking
     * at paths (not opening them) learns what exists, how large, where links lead, and the machine's mounts. */
    struct stat seen;
    char led[256];
    if (stat(ATTEMPT_LOOK, &seen) == 0) report("learnt that a file outside its folder exists, and its size");
    if (access(ATTEMPT_LOOK, R_OK) == 0) report("learnt that a file outside its folder is readable");
    if (readlink(ATTEMPT_LOOK ".link", led, sizeof led) > 0) report("learnt where a link outside its folder leads");
    if (stat("/proc/1", &seen) == 0) report("learnt which other processes run");
    FILE *mounts = fopen("/proc/self/mountinfo", "r");
    char mount[1024];
    while (mounts && fgets(mount, sizeof mount, mounts)) {
        char point[512], type[64];
        const char *after = strstr(mount, " - ");
        if (sscanf(mount, "%*s %*s %*s %*s %511s", point) == 1 && after && sscanf(after + 3, "%63s", type) == 1
            && strcmp(point, "/") == 0 && strcmp(type, "tmpfs") != 0) {
            report("read the machine's mount table");
            break;
        }
    }
    if (mounts) fclose(mounts);
#endif
#ifdef ATTEMPT_SOCKET
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd >= 0) {
        report("opened a socket");
        close(fd);
    }
#endif
#if defined(ATTEMPT_FILE_LOCK) || defined(ATTEMPT_FLOCK) || defined(ATTEMPT_MINCORE) || defined(ATTEMPT_FADVISE)
    /* A file every worker can read: locks on it, and its pages' presence in the page cache, are seen by all. */
    int shared = open("/etc/ld.so.cache", O_RDONLY);
#endif
#ifdef ATTEMPT_FILE_LOCK
    struct flock lock = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 7, .l_len = 1 };
    if (shared >= 0 && fcntl(shared, F_OFD_SETLK, &lock) == 0) report("took a byte-range lock other processes see");
#endif
#ifdef ATTEMPT_FLOCK
    if (shared >= 0 && flock(shared, LOCK_SH | LOCK_NB) == 0) report("took a file lock other processes see");
#endif
#ifdef ATTEMPT_MINCORE
    void *pages = shared >= 0 ? mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, shared, 0) : MAP_FAILED;
    unsigned char resident = 0;
    if (pages != MAP_FAILED && mincore(pages, 4096, &resident) == 0) report("learnt which pages of a shared file are cached");
#endif
#ifdef ATTEMPT_FADVISE
    if (shared >= 0 && posix_fadvise(shared, 0, 0, POSIX_FADV_DONTNEED) == 0) report("dropped a shared file from the page cache");
#endif
#if defined(ATTEMPT_FILE_LOCK) || defined(ATTEMPT_FLOCK) || defined(ATTEMPT_MINCORE) || defined(ATTEMPT_FADVISE)
    if (shared >= 0) close(shared);
#endif
#ifdef ATTEMPT_NET_LIST
    /* Every UNIX socket of the network namespace, one a line after a header: none is the worker's own there. */
    FILE *list = fopen("/proc/self/net/unix", "r");
    char entry[512];
    int sockets = -1;
    while (list && fgets(entry, sizeof entry, list)) sockets++;
    if (list) fclose(list);
    if (sockets > 0) report("listed the machine's UNIX sockets");
#endif
#ifdef ATTEMPT_CLONE
    long child = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
    if (child == 0) _exit(0);
    if (child > 0 && waitpid((pid_t)child, NULL, 0) == child) report("started a process with clone");
#endif
}
#if ATTEMPT_AT == 1
__attribute__((constructor)) static void attempt_on_load(void) { attempt(); }
#endif
#endif

#ifdef FAULT_CRASH_CONSTRUCTOR
__attribute__((constructor)) static void crash_on_load(void) { FIXTURE_CRASH(); }
#endif
#ifdef FAULT_EXIT_CONSTRUCTOR
__attribute__((constructor)) static void exit_on_load(void) { exit(0); }
#endif

/* Counters the tests read with dlsym, to see how the host called the animator. */
SEGUE_EXPORT int fixture_setup_calls = 0;
SEGUE_EXPORT int fixture_end_calls = 0;
SEGUE_EXPORT int fixture_last_completed = -1;

/* CUT_BACK: every struct declares only the members a host requires (as a plugin
 * built before a member was appended does): what lies past each size must
 * read as absent, and `end`, past the animator's, must never be called. */
static const segue_param_t level_param = {
#ifdef CUT_BACK
    .struct_size = offsetof(segue_param_t, choices),
#else
    .struct_size = sizeof(segue_param_t),
#endif
#ifdef FAULT_PARAM_BAD_NAME
    .name = "9lives",
#else
    .name = "level",
#endif
#ifdef ATTEMPT_SPOOF
    .explanation = "spoof " FIXTURE_SPOOF,
#else
    .explanation = "Opacity the to view reaches mid-way.",
#endif
    .type = FIXTURE_PARAM_TYPE,
#ifdef FAULT_DEFAULT_OUT_OF_RANGE
    .default_value = 5,
#else
    .default_value = 0.5,
#endif
    .min_value = 0, .max_value = 1,
};

static const char *const choice_names[] = { "one", "two" };

FIXTURE_UNUSED static const segue_param_t choice_param = {
    .struct_size = sizeof(segue_param_t),
    .name = "pick",
    .explanation = "A choice whose range does not match its choices.",
    .type = SEGUE_PARAM_CHOICE,
    .default_value = 0, .min_value = 0, .max_value = 5,
    .choices = choice_names, .choice_count = 2,
};

#if defined(FAULT_DUPLICATE_PARAM)
static const segue_param_t *const params[] = { &level_param, &level_param };
#elif defined(FAULT_CHOICE_RANGE)
static const segue_param_t *const params[] = { &level_param, &choice_param };
#else
static const segue_param_t *const params[] = { &level_param };
#endif

#ifdef FAULT_LOG_SETUP
/* The host, kept from the entry point, to log through in setup. */
static const segue_host_t *logging_host;
#endif

static segue_setup_result_t setup(const segue_animator_t *self, const segue_context_t *ctx, segue_plan_t *plan) {
    (void)self; (void)ctx;
    fixture_setup_calls++;
#ifdef FAULT_LOG_SETUP
    if (logging_host && SEGUE_HOST_HAS(logging_host, log)) logging_host->log(logging_host, SEGUE_LOG_INFO, "a line logged in setup");
#endif
#if defined(ATTEMPT_AT) && ATTEMPT_AT == 3
    attempt();
#endif
#ifdef FAULT_ABORT_SETUP
    abort();
#endif
#ifdef FAULT_EXIT_SETUP
    exit(0);
#endif
#ifdef FAULT__EXIT_SETUP
    _exit(3);
#endif
#ifdef FAULT_HANG_SETUP
    FIXTURE_SPIN();
#endif
#ifdef FAULT_SLOW_SETUP
    struct timespec slow_setup = { 0, 150000000 }; /* 150 ms: past libsegue's begin bound, not hung */
    nanosleep(&slow_setup, NULL);
#endif
#ifdef FAULT_CHANGE_DESCRIPTOR
    change_descriptor();
#endif
#ifdef FAULT_CRASH_SETUP
    *(volatile int *)(uintptr_t)plan->layer_count = 1; /* layer_count is 0: a write through NULL */
#endif
#ifdef ATTEMPT_SPOOF
    /* A line as Segue marks its own, and a reason that ends the report's line and reverses what follows. */
    static const char forged[] = "segue: [error] /usr/lib/segue/plugins/libSpringSlide.so: forged\n";
    if (write(2, forged, sizeof forged - 1) < 0) return SEGUE_SETUP_DECLINE;
    strncpy(plan->decline_reason, "spoof " FIXTURE_SPOOF "\xe2\x80\xa8" "photo -> video: SpringSlide" "\xe2\x80\xae", SEGUE_REASON_CAPACITY - 1);
    return SEGUE_SETUP_DECLINE;
#endif
#if defined(FAULT_DECLINE) || defined(ATTEMPT_ENVIRONMENT)
#ifdef ATTEMPT_ENVIRONMENT
    strncpy(plan->decline_reason, environment_text, SEGUE_REASON_CAPACITY - 1);
#else
    strncpy(plan->decline_reason, "this fixture always declines", SEGUE_REASON_CAPACITY - 1);
#endif
    return SEGUE_SETUP_DECLINE;
#elif defined(FAULT_SETUP_RESULT)
    return (segue_setup_result_t)7;
#else
    plan->duration = 0.5;
#ifdef FAULT_TOO_MANY_LAYERS
    plan->layer_count = SEGUE_MAX_LAYERS + 1;
#else
    plan->layer_count = 2;
#endif
    plan->layers[0].kind = SEGUE_LAYER_FROM_VIEW;
    plan->layers[1].kind = SEGUE_LAYER_TO_VIEW;
#ifdef FAULT_BAD_LAYER_KIND
    plan->layers[1].kind = 42;
#endif
#if defined(FAULT_MESH_POINTER) || defined(HUGE_FRAME)
    plan->layers[1].mesh_columns = 2;
    plan->layers[1].mesh_rows = 2;
#endif
#ifdef HUGE_FRAME
    plan->layers[0].mesh_columns = 2;
    plan->layers[0].mesh_rows = 2;
#endif
#ifdef FAULT_BIG_MESH
    plan->layers[1].mesh_columns = SEGUE_MAX_MESH_DIVISIONS + 1;
    plan->layers[1].mesh_rows = 1;
#endif
#ifdef FAULT_BAD_ELEMENT
    plan->hidden_count = 1;
    plan->hidden[0].side = SEGUE_SIDE_TO;
    plan->hidden[0].element = 99;
#endif
    return SEGUE_SETUP_ANIMATE;
#endif
}

FIXTURE_UNUSED static void evaluate(const segue_animator_t *self, const segue_context_t *ctx, const segue_plan_t *plan,
                     double t, segue_layer_state_t *const *states, uint32_t layer_count) {
    (void)self; (void)layer_count;
    double f = t / plan->duration;
#if defined(ATTEMPT_AT) && ATTEMPT_AT == 4
    if (f > 0.25) attempt();
#endif
#ifdef FAULT_NAN
    if (f > 0.5) { states[0]->alpha = NAN; return; }
#endif
#ifdef FAULT_HANG_EVALUATE
    if (f > 0.25) FIXTURE_SPIN();
#endif
#ifdef FAULT_HANG_FIRST_FRAME
    if (t == 0) FIXTURE_SPIN();
#endif
#ifdef FAULT_CRASH_EVALUATE
    if (f > 0.25) FIXTURE_CRASH();
#endif
#ifdef FAULT_PRINT_EVALUATE
    if (write(1, FIXTURE_FAKE_REPORT, strlen(FIXTURE_FAKE_REPORT)) < 0) return;
#endif
#ifdef FAULT_MESH_POINTER
    for (uint32_t i = 0; i < states[1]->mesh_vertex_count; i++) states[1]->mesh[i].z = 0;
    states[1]->mesh = (segue_vec3_t *)(uintptr_t)0x10; /* the host must not follow these */
    states[1]->mesh_vertex_count = 1u << 30;
#endif
#ifdef FAULT_LEAK
    volatile char *lost = malloc(256);
    if (lost) lost[0] = 1; /* never freed */
#endif
#ifdef HUGE_FRAME
    /* Two meshed layers HUGE_FRAME points a side: finite, on screen, and far larger than any canvas. */
    states[0]->frame = (segue_rect_t){ 0, 0, HUGE_FRAME, HUGE_FRAME };
    states[1]->frame = (segue_rect_t){ 0, 0, HUGE_FRAME, HUGE_FRAME };
#endif
#ifdef FAULT_WRONG_FINAL_FRAME
    states[1]->frame.x += 10 * f; /* the to view ends 10 points right of its final frame */
#endif
    states[0]->alpha = 1 - f;
    states[1]->alpha = f * (f <= 0.5 ? 2 * ctx->params[0] : 1);
#ifdef FAULT_CLIP_RADIUS
    /* ABI 1.4: a corner radius larger than half the clip's shorter side (clamped by the host, reported by the validator). */
    states[1]->clip.shape = SEGUE_CLIP_ROUNDED_RECT;
    states[1]->clip.rect = (segue_rect_t){ 0, 0, 10, 8 };
    states[1]->clip.radii.top_left = 6;
#endif
#ifdef FAULT_READS_UNKNOWN_ANCHOR
    /* ABI 1.4: reads the anchor's rectangle without looking at has_rect. */
    states[1]->frame.x += ctx->anchor.rect.x * 0;
#endif
#ifdef FAULT_ALPHA_OVER
#ifdef FAULT_ALPHA_ODD
    if (f > 0.5) states[1]->alpha = 1.054795098758946; /* a value with many digits, printed rounded */
#else
    if (f > 0.5) states[1]->alpha = 1.25; /* clamped by the host, reported by the validator */
#endif
#endif
#ifdef FAULT_PERSPECTIVE_ONLY
    states[1]->transform.m[11] = -1.0 / 500; /* m34 alone: a flat layer looks the same */
#endif
#ifdef ATTEMPT_READ_SECRET
    states[0]->z_position = stolen; /* what it read, carried out in a layer value */
#endif
#ifdef FIXTURE_FRAMES_FROM_CONTEXT
    /* Places the layers where the context says the views start and end, as CurlUp reads its page. */
    states[0]->frame = ctx->from_initial_frame;
    states[1]->frame = ctx->to_final_frame;
#endif
#ifdef FAULT_IN_WINDOWS
    /* Faults only a window's transitions show: a NaN while it opens (not at
     * its end), and while it closes an alpha of 1.25 and the window still
     * fully shown at the end. */
    if (ctx->kind == SEGUE_TRANSITION_APPEAR && f > 0.5 && f < 1) states[1]->alpha = NAN;
    if (ctx->kind == SEGUE_TRANSITION_DISAPPEAR) {
        states[0]->alpha = 1;
        if (f > 0.5) states[1]->alpha = 1.25;
    }
#endif
#ifdef FAULT_SLOW_EVALUATE
    struct timespec slow = { 0, 50000000 }; /* 50 ms an evaluation: slow, not hung */
    nanosleep(&slow, NULL);
#endif
#ifdef FIXTURE_KINDS
    /* Written for every kind: says which one it was given, in both layers' z. */
    states[0]->z_position = 100 + ctx->kind;
    states[1]->z_position = 100 + ctx->kind;
#endif
}

#ifdef ATTEMPT_STOP_AFTER_END
#include <pthread.h>
#include <time.h>
/* Stops the whole worker a moment after end has answered: a stopped process
 * notices nothing, a closed socket included. */
static void *stop_soon(void *unused) {
    (void)unused;
    struct timespec pause = { 0, 20000000 };
    nanosleep(&pause, NULL);
    raise(SIGSTOP);
    return NULL;
}
#endif

FIXTURE_UNUSED static void end(const segue_animator_t *self, const segue_context_t *ctx, segue_plan_t *plan, bool completed) {
    (void)self; (void)ctx; (void)plan;
    fixture_end_calls++;
    fixture_last_completed = completed;
#ifdef ATTEMPT_SPIN_DURING
    spin_during = 0;
#endif
#ifdef FAULT_CRASH_END
    FIXTURE_CRASH();
#endif
#ifdef FAULT_HANG_END
    FIXTURE_SPIN();
#endif
#ifdef ATTEMPT_STOP_AFTER_END
    pthread_t stopper;
    if (pthread_create(&stopper, NULL, stop_soon, NULL) == 0) pthread_detach(stopper);
#endif
}

#ifdef CUT_BACK
/* Lies past the animator's struct_size: a host that called it read past what the plugin declared. */
static void end_past_the_size(const segue_animator_t *self, const segue_context_t *ctx, segue_plan_t *plan, bool completed) {
    (void)self; (void)ctx; (void)plan; (void)completed;
    FIXTURE_CRASH();
}
#endif

#ifdef FAULT_CHANGE_DESCRIPTOR
static segue_animator_t fade; /* writable, so that setup can rewrite it */
#else
static const segue_animator_t fade;
#endif

#ifdef FAULT_CHANGE_DESCRIPTOR
/* Rewrites the descriptor after the host read it: a host that read it again would crash. */
static void change_descriptor(void) {
    fade.name = NULL;
    fade.id = (const char *)(uintptr_t)1;
    fade.setup = NULL;
    fade.evaluate = (void *)(uintptr_t)1;
    fade.param_count = 1000;
}
#endif

#ifdef FAULT_CHANGE_DESCRIPTOR
static segue_animator_t fade = {
#else
static const segue_animator_t fade = {
#endif
#ifdef FAULT_ANIMATOR_ABI_MAJOR
    .abi_version = { 2, 0 },
#else
    .abi_version = SEGUE_ABI_VERSION_INIT,
#endif
#ifdef CUT_BACK
    .struct_size = offsetof(segue_animator_t, end),
#elif defined(ANIMATOR_STRUCT_SIZE)
    .struct_size = ANIMATOR_STRUCT_SIZE,
#else
    .struct_size = sizeof(segue_animator_t),
#endif
    .id = FIXTURE_ID,
#ifdef FAULT_NULL_NAME
    .name = NULL,
#elif defined(FAULT_LONG_NAME)
    .name = "ThisNameIsFarTooLongForTheAnimatorABIWhichAllowsSixtyThreeBytesAtMost",
#else
    .name = FIXTURE_NAME,
#endif
    .version = "1.0.0",
#ifdef ATTEMPT_ENVIRONMENT
    .description = environment_text,
#elif defined(ATTEMPT_SPOOF)
    .description = "spoof " FIXTURE_SPOOF,
#else
    .description = "A crossfade for the tests.",
#endif
    .params = params,
    .param_count = sizeof params / sizeof params[0],
    .setup = setup,
#ifdef FAULT_NULL_EVALUATE
    .evaluate = NULL,
#else
    .evaluate = evaluate,
#ifdef FIXTURE_KINDS
    .kinds = SEGUE_KIND_BIT(SEGUE_TRANSITION_SWITCH) | SEGUE_KIND_BIT(SEGUE_TRANSITION_APPEAR) |
             SEGUE_KIND_BIT(SEGUE_TRANSITION_DISAPPEAR),
#endif
#endif
#ifdef CUT_BACK
    .end = end_past_the_size,
#else
    .end = end,
#endif
};

#ifdef FIXTURE_TWO_ANIMATORS
/* A second animator in the same file, as a plugin with several ships them:
 * the same fade under its own id and name. */
static const segue_animator_t second = {
    .abi_version = SEGUE_ABI_VERSION_INIT,
    .struct_size = sizeof(segue_animator_t),
    .id = "org.segue.test.second-fade/1",
    .name = "SecondFade",
    .version = "1.0.0",
    .description = "The test crossfade again, the file's second animator.",
    .params = params,
    .param_count = sizeof params / sizeof params[0],
    .setup = setup,
    .evaluate = evaluate,
    .end = end,
};
static const segue_animator_t *const animators[] = { &fade, &second };
#else
static const segue_animator_t *const animators[] = { &fade };
#endif

FIXTURE_UNUSED static const segue_plugin_t plugin = {
#ifdef FAULT_ABI_MAJOR
    .abi_version = { SEGUE_ABI_VERSION_MAJOR + 1, 0 },
#else
    .abi_version = SEGUE_ABI_VERSION_INIT,
#endif
#ifdef FAULT_PLUGIN_STRUCT_SIZE
    .struct_size = 8,
#elif defined(CUT_BACK)
    .struct_size = offsetof(segue_plugin_t, animator_count) + sizeof(uint32_t),
#else
    .struct_size = sizeof(segue_plugin_t),
#endif
    .animators = animators,
#ifdef FAULT_NO_ANIMATORS
    .animator_count = 0,
#else
    .animator_count = sizeof animators / sizeof animators[0],
#endif
};

#ifdef FAULT_HUGE_DESCRIPTION
/* A valid plugin whose description takes about 4.4 MB in its binary form: 8
 * animators of 32 parameters of 256 choices of 63 bytes (the ABI's limits
 * allow far more). Built at load, all choices sharing one string. */
#define HUGE_ANIMATORS 8
#define HUGE_PARAMS 32
#define HUGE_CHOICES 256
static const char *huge_choices[HUGE_CHOICES];
static char huge_choice[64], huge_param_names[HUGE_PARAMS][8], huge_ids[HUGE_ANIMATORS][40], huge_names[HUGE_ANIMATORS][16];
static segue_param_t huge_params[HUGE_PARAMS];
static const segue_param_t *huge_param_list[HUGE_PARAMS];
static segue_animator_t huge_animators[HUGE_ANIMATORS];
static const segue_animator_t *huge_animator_list[HUGE_ANIMATORS];
static segue_plugin_t huge_plugin;

static const segue_plugin_t *huge_description(void) {
    memset(huge_choice, 'x', 63);
    for (int c = 0; c < HUGE_CHOICES; c++) huge_choices[c] = huge_choice;
    for (int p = 0; p < HUGE_PARAMS; p++) {
        snprintf(huge_param_names[p], sizeof huge_param_names[p], "p%d", p);
        huge_params[p] = (segue_param_t){
            .struct_size = sizeof(segue_param_t), .name = huge_param_names[p], .explanation = "One of many.",
            .type = SEGUE_PARAM_CHOICE, .default_value = 0, .min_value = 0, .max_value = HUGE_CHOICES - 1,
            .choices = huge_choices, .choice_count = HUGE_CHOICES,
        };
        huge_param_list[p] = &huge_params[p];
    }
    for (int a = 0; a < HUGE_ANIMATORS; a++) {
        snprintf(huge_ids[a], sizeof huge_ids[a], "org.segue.test.huge%d/1", a);
        snprintf(huge_names[a], sizeof huge_names[a], "Huge%d", a);
        huge_animators[a] = fade;
        huge_animators[a].id = huge_ids[a];
        huge_animators[a].name = huge_names[a];
        huge_animators[a].params = huge_param_list;
        huge_animators[a].param_count = HUGE_PARAMS;
        huge_animator_list[a] = &huge_animators[a];
    }
    huge_plugin = plugin;
    huge_plugin.animators = huge_animator_list;
    huge_plugin.animator_count = HUGE_ANIMATORS;
    return &huge_plugin;
}
#endif

#ifdef FAULT_DATA_ENTRY
/* Data under the entry point's name: calling it would crash. */
SEGUE_EXPORT const int fixture_entry_data[4] __asm__("segue_animator_entry") = { 0 };
SEGUE_EXPORT const segue_plugin_t *fixture_entry(const segue_host_t *host) {
#elif defined(FAULT_NO_ENTRY)
SEGUE_EXPORT const segue_plugin_t *some_other_entry(const segue_host_t *host) {
#else
SEGUE_EXPORT const segue_plugin_t *segue_animator_entry(const segue_host_t *host) {
#endif
#ifdef FAULT_LOG_SETUP
    logging_host = host;
#endif
#ifdef ATTEMPT_AT
    fixture_host = host;
#if ATTEMPT_AT == 2
    attempt();
#endif
#endif
#ifdef FAULT_CRASH_ENTRY
    FIXTURE_CRASH();
#endif
#ifdef FAULT_HANG_ENTRY
    FIXTURE_SPIN();
#endif
#ifdef FAULT_PRINT_ENTRY
    printf(FIXTURE_FAKE_REPORT);
    fflush(stdout);
#endif
#ifdef FAULT_ENTRY_NULL
    if (SEGUE_HOST_HAS(host, log)) host->log(host, SEGUE_LOG_ERROR, "this fixture refuses to load");
    return NULL;
#elif defined(FAULT_HUGE_DESCRIPTION)
    (void)host;
    return huge_description();
#else
    (void)host;
    return &plugin;
#endif
}
