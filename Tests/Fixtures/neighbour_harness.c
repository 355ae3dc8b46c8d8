/* The control for the neighbour test: the tampering fixture and its victim in
 * one address space, as a scanner that loaded every file in one process had
 * them. Loads the two in the order given (victim first, or tamperer first),
 * then watches the victim's descriptor for at most two seconds and prints
 * the name it ends with. A tamperer that works prints the forged name. */
#define _POSIX_C_SOURCE 200809L
#include "segue_animator.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s VICTIM TAMPERER victim-first|tamperer-first\n", argv[0]);
        return 2;
    }
    int victim_first = strcmp(argv[3], "victim-first") == 0;
    void *victim = NULL;
    if (victim_first) victim = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (dlopen(argv[2], RTLD_NOW | RTLD_LOCAL) == NULL) return 3;
    if (!victim_first) victim = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (victim == NULL) return 3;
    const segue_plugin_t *(*entry)(const segue_host_t *) = (const segue_plugin_t *(*)(const segue_host_t *))dlsym(victim, "segue_animator_entry");
    const segue_plugin_t *plugin = entry ? entry(NULL) : NULL;
    if (plugin == NULL || plugin->animator_count == 0) return 4;
    const char *name = plugin->animators[0]->name;
    for (int i = 0; i < 2000 && strncmp(name, "Tamper", 6) != 0; i++) {
        struct timespec pause = { 0, 1000000 };
        nanosleep(&pause, NULL);
    }
    printf("%s\n", name);
    return 0;
}
