/* runner.c - runs one command with stdin from a file and stdout to a
 * file, and prints its wall time and peak RSS:
 *
 *   runner IN OUT CMD [ARGS...]   ->   "<wall ms> <max RSS KB> <CPU ms>\n"
 *
 * The whole process is measured (start-up, parsing, solving, output), as
 * a judge would. CPU time (user + system) is printed too: on a machine
 * shared with other work it varies far less than wall time. Exit status: the
 * command's, 128 + the signal's number when a signal ended it (as a shell
 * reports it), or 127 when it cannot run.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: runner IN OUT CMD [ARGS...]\n");
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0)
        return 127;
    if (pid == 0) {
        int in = open(argv[1], O_RDONLY);
        int out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0)
            _exit(127);
        execvp(argv[3], argv + 3);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0)
        return 127;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
                (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    double cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
                 (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    printf("%.2f %ld %.2f\n", ms, ru.ru_maxrss, cpu);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 127;
}
