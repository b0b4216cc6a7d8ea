// notify-listen PATH: binds an AF_UNIX datagram socket at PATH and prints each datagram it
// receives on one line (its newlines turned into spaces), as systemd receives sd_notify
// messages on /run/systemd/notify. Test helper for the virtual kiosk, which has no systemd.
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 2 || strlen(argv[1]) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
        fprintf(stderr, "usage: notify-listen PATH\n");
        return 64;
    }
    int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    strcpy(address.sun_path, argv[1]);
    unlink(argv[1]);
    if (fd < 0 || bind(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        perror(argv[1]);
        return 1;
    }
    char message[4097];
    for (;;) {
        ssize_t count = recv(fd, message, sizeof message - 1, 0);
        if (count < 0) continue;
        message[count] = 0;
        for (ssize_t i = 0; i < count; i++)
            if (message[i] == '\n') message[i] = ' ';
        printf("%s\n", message);
        fflush(stdout);
    }
}
