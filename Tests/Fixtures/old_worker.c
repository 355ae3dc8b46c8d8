/* A stand-in for a segue-worker from an older build: it answers every request
 * with a reply whose version member is 0 (it was reserved before replies
 * carried a version), as such a worker would. The host must refuse it at its
 * first reply, saying so, and leave nothing running. */
#include <stdint.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void) {
    unsigned char request[64];
    for (;;) {
        ssize_t got = recv(3, request, sizeof request, 0);
        if (got <= 0) return 0;
        uint32_t reply[4] = {0, 1, 0, 0}; /* status ok, value 1, no text, version 0 */
        if (send(3, reply, sizeof reply, MSG_NOSIGNAL) != sizeof reply) return 0;
    }
}
