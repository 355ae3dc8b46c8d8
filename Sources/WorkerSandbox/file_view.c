/* The worker's file-system view: a mount namespace whose root holds only
 * what the process may read, bound read-only into an empty tmpfs, as
 * bubblewrap builds one. Landlock mediates opening a file, not looking at a
 * path: without this, `stat`, `readlink` and `access` would answer for any
 * path of the machine, and /proc/self/mountinfo would list its mounts. */
#define _GNU_SOURCE
#include "sandbox_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* What goes where in the new root: a link as the machine has it, or a file or folder bound from it. */
typedef struct {
    char path[PATH_MAX];
    char target[PATH_MAX]; /* a link's text; empty for a binding */
    int source;            /* a binding's O_PATH descriptor, -1 for a link */
    int is_folder;
} placement_t;

#define PLACEMENTS 256

typedef struct {
    placement_t *items;
    size_t count;
} plan_t;

/* `path` made absolute and plain: no ".", "..", or repeated slashes (".." at the root stays there). */
static void normalize(const char *path, char *out) {
    size_t length = 0;
    out[0] = 0;
    const char *p = path;
    while (*p) {
        while (*p == '/') p++;
        const char *end = p;
        while (*end && *end != '/') end++;
        size_t n = (size_t)(end - p);
        if (n == 0 || (n == 1 && p[0] == '.')) {
        } else if (n == 2 && p[0] == '.' && p[1] == '.') {
            while (length > 0 && out[length - 1] != '/') length--;
            if (length > 0) length--;
            out[length] = 0;
        } else if (length + 1 + n < PATH_MAX) {
            out[length++] = '/';
            memcpy(out + length, p, n);
            length += n;
            out[length] = 0;
        }
        p = end;
    }
    if (length == 0) strcpy(out, "/");
}

/* Plans `path` into the view: each link met on the way is placed as it is and followed, and what it
 * leads to is bound. A path that does not exist is left out. */
static void plan_path(plan_t *plan, const char *path, int depth) {
    if (depth > 16 || plan->count >= PLACEMENTS) return;
    char plain[PATH_MAX];
    normalize(path, plain);
    char walked[PATH_MAX] = "";
    const char *rest = plain;
    while (*rest) {
        while (*rest == '/') rest++;
        if (!*rest) break;
        const char *end = strchr(rest, '/');
        size_t n = end ? (size_t)(end - rest) : strlen(rest);
        size_t length = strlen(walked);
        if (length + 1 + n >= PATH_MAX) return;
        walked[length] = '/';
        memcpy(walked + length + 1, rest, n);
        walked[length + 1 + n] = 0;
        rest += n;
        struct stat st;
        if (lstat(walked, &st) != 0) return;
        if (S_ISLNK(st.st_mode)) {
            placement_t *link = &plan->items[plan->count];
            ssize_t read = readlink(walked, link->target, sizeof link->target - 1);
            if (read <= 0) return;
            link->target[read] = 0;
            strcpy(link->path, walked);
            link->source = -1;
            link->is_folder = 0;
            plan->count++;
            /* Followed from the link's folder (or the root, for an absolute target), with what was left. */
            char next[PATH_MAX * 2];
            if (link->target[0] == '/') snprintf(next, sizeof next, "%s%s", link->target, rest);
            else snprintf(next, sizeof next, "%.*s/%s%s", (int)length, walked, link->target, rest);
            plan_path(plan, next, depth + 1);
            return;
        }
    }
    int fd = open(walked[0] ? walked : "/", O_PATH | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0) close(fd);
        return;
    }
    placement_t *bind = &plan->items[plan->count++];
    strcpy(bind->path, walked[0] ? walked : "/");
    bind->target[0] = 0;
    bind->source = fd;
    bind->is_folder = S_ISDIR(st.st_mode);
}

static int by_path(const void *a, const void *b) {
    return strcmp(((const placement_t *)a)->path, ((const placement_t *)b)->path);
}

/* Whether `path` is `folder` or lies beneath it. */
static int beneath(const char *path, const char *folder) {
    size_t n = strlen(folder);
    return strncmp(path, folder, n) == 0 && (path[n] == 0 || path[n] == '/' || (n == 1 && folder[0] == '/'));
}

/* Creates every folder of `path` beneath `root` (which exists), not `path` itself. */
static int make_parents(const char *root, const char *path) {
    char built[PATH_MAX * 2];
    snprintf(built, sizeof built, "%s%s", root, path);
    for (char *slash = built + strlen(root) + 1; (slash = strchr(slash, '/')) != NULL; slash++) {
        *slash = 0;
        int rc = mkdir(built, 0755);
        *slash = '/';
        if (rc != 0 && errno != EEXIST) return -1;
    }
    return 0;
}

static int fail(char *error, size_t capacity, const char *what, const char *path) {
    snprintf(error, capacity, "%s %s: %s", what, path, strerror(errno));
    return -1;
}

/* Places each planned item beneath `root`, parents before children; an item beneath a folder bound
 * already is seen through that binding and left out (nothing is ever made inside a binding). */
static int place(plan_t *plan, const char *root, char *error, size_t capacity) {
    qsort(plan->items, plan->count, sizeof *plan->items, by_path);
    const char *bound[PLACEMENTS];
    size_t bound_count = 0;
    for (size_t i = 0; i < plan->count; i++) {
        placement_t *item = &plan->items[i];
        int seen = 0;
        for (size_t j = 0; j < bound_count && !seen; j++) seen = beneath(item->path, bound[j]);
        if (seen) continue;
        if (i > 0 && strcmp(item->path, plan->items[i - 1].path) == 0) continue;
        char at[PATH_MAX * 2];
        snprintf(at, sizeof at, "%s%s", root, item->path);
        if (make_parents(root, item->path) != 0) return fail(error, capacity, "cannot make the folders of", item->path);
        if (item->source < 0) {
            if (symlink(item->target, at) != 0 && errno != EEXIST) return fail(error, capacity, "cannot place the link", item->path);
            continue;
        }
        if (item->is_folder) {
            if (mkdir(at, 0755) != 0 && errno != EEXIST) return fail(error, capacity, "cannot make the folder", item->path);
        } else {
            int made = open(at, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
            if (made < 0) return fail(error, capacity, "cannot make the file", item->path);
            close(made);
        }
        char source[64];
        snprintf(source, sizeof source, "/proc/self/fd/%d", item->source);
        if (mount(source, at, NULL, MS_BIND | MS_REC, NULL) != 0) return fail(error, capacity, "cannot bind", item->path);
        /* Read-only as well (Landlock refuses writes anyway); a mount whose flags a user namespace locks may refuse. */
        (void)mount(NULL, at, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID, NULL);
        if (item->is_folder) bound[bound_count++] = item->path;
    }
    return 0;
}

/* A folder that exists on every system, for the new root to be mounted on (in this namespace only). */
static const char *const mount_points[] = { "/tmp", "/mnt", "/var/tmp", "/run", "/dev" };

int sandbox_enter_view(const char *const *paths, size_t count, char *error, size_t capacity) {
    plan_t plan = { calloc(PLACEMENTS, sizeof(placement_t)), 0 };
    if (plan.items == NULL) return fail(error, capacity, "cannot plan the file view", "");
    /* Planned (and each source opened) before anything is mounted: a tmpfs on /tmp would hide what lies beneath. */
    for (size_t i = 0; i < count; i++) plan_path(&plan, paths[i], 0);
    int rc = -1;
    const char *root = NULL;
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
        fail(error, capacity, "cannot make the mounts private", "/");
        goto done;
    }
    for (size_t i = 0; i < sizeof mount_points / sizeof *mount_points && root == NULL; i++) {
        struct stat st;
        if (stat(mount_points[i], &st) == 0 && S_ISDIR(st.st_mode)
            && mount("segue-view", mount_points[i], "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m") == 0)
            root = mount_points[i];
    }
    if (root == NULL) {
        fail(error, capacity, "cannot mount a tmpfs for the file view on", "/tmp");
        goto done;
    }
    if (place(&plan, root, error, capacity) != 0) goto done;
    /* The new root, read-only; the old one stacked beneath it, then detached (pivot_root(2)'s own recipe). */
    (void)mount(NULL, root, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL);
    if (chdir(root) != 0 || syscall(SYS_pivot_root, ".", ".") != 0) {
        fail(error, capacity, "cannot make the file view the root (pivot_root)", root);
        goto done;
    }
    if (umount2(".", MNT_DETACH) != 0 || chdir("/") != 0) {
        fail(error, capacity, "cannot leave the old root", "/");
        goto done;
    }
    rc = 0;
done:
    for (size_t i = 0; i < plan.count; i++)
        if (plan.items[i].source >= 0) close(plan.items[i].source);
    free(plan.items);
    return rc;
}
