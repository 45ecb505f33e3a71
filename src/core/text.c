/* text.c - cursor over classic judge text input. */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "gridsolve/text.h"

/* ASCII classes, whatever the locale: judge text is ASCII, and ctype's
 * macros cost a call each (__ctype_b_loc), most of a small file's parse. */
static inline int is_digit(unsigned char c)
{
    return (unsigned)(c - '0') < 10;
}

static inline int is_space(unsigned char c)
{
    return c == ' ' || (unsigned)(c - '\t') < 5; /* \t \n \v \f \r */
}

void gs_text_init(gs_text *t, const char *data, size_t len)
{
    /* A UTF-8 byte order mark (editors on Windows write one) is not part
     * of the first line: XSB would skip that row as a comment. */
    if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0) {
        data += 3;
        len -= 3;
    }
    t->p = data;
    t->end = data + len;
    t->line = 1;
    t->format = NULL;
    t->cases = 0;
}

static void skip_space(gs_text *t)
{
    while (t->p < t->end && is_space((unsigned char)*t->p)) {
        if (*t->p == '\n')
            t->line++;
        t->p++;
    }
}

/* The error for a token that is not an integer, naming the byte at s
 * where it went wrong (s == end: the input ends after a sign). */
static int not_an_int(const gs_text *t, const char *s, const char *what,
                      gs_error *err)
{
    if (s >= t->end)
        return gs_error_set(err, GS_EINVALID,
                            "line %d: expected an integer (%s), found the "
                            "end of the input",
                            t->line, what);
    unsigned char ch = (unsigned char)*s;
    if (ch == '\n' || ch == '\r') /* after a lone sign */
        return gs_error_set(err, GS_EINVALID,
                            "line %d: expected an integer (%s), found the "
                            "end of the line",
                            t->line, what);
    /* A NUL would cut the message short and other bytes need not be
     * UTF-8, which the JSON problem document requires: show those as hex. */
    if (ch >= 0x20 && ch < 0x7f)
        return gs_error_set(err, GS_EINVALID,
                            "line %d: expected an integer (%s), found '%c'",
                            t->line, what, ch);
    return gs_error_set(err, GS_EINVALID,
                        "line %d: expected an integer (%s), found byte 0x%02x",
                        t->line, what, ch);
}

int gs_text_int(gs_text *t, long *v, const char *what, gs_error *err)
{
    skip_space(t);
    if (t->p >= t->end)
        return 0;
    const char *s = t->p;
    int neg = 0;
    if (*s == '-' || *s == '+')
        neg = *s++ == '-';
    if (s >= t->end || !is_digit((unsigned char)*s))
        return not_an_int(t, s, what, err);
    long n = 0;
    while (s < t->end && is_digit((unsigned char)*s)) {
        int d = *s - '0';
        /* Constants, not a division per digit. */
        if (n > LONG_MAX / 10 || (n == LONG_MAX / 10 && d > LONG_MAX % 10))
            return gs_error_set(err, GS_EINVALID,
                                "line %d: integer too large (%s)", t->line,
                                what);
        n = n * 10 + d;
        s++;
    }
    if (s < t->end && !is_space((unsigned char)*s))
        return not_an_int(t, s, what, err);
    t->p = s;
    *v = neg ? -n : n;
    return 1;
}

int gs_text_need_int(gs_text *t, long *v, const char *what, gs_error *err)
{
    return gs_text_ints(t, v, 1, what, err);
}

/* Reads the token at s (on line `line`) the careful way, gs_text_int's:
 * a number of many digits, or no number at all, whose error it names.
 * Out of line so that gs_text_ints keeps its cursor in registers. */
static __attribute__((noinline, cold)) int slow_int(gs_text *t, const char *s,
                                                    int line, long *v,
                                                    const char *what,
                                                    gs_error *err)
{
    t->p = s;
    t->line = line;
    int rc = gs_text_int(t, v, what, err);
    if (rc == 0)
        return gs_error_set(err, GS_EINVALID,
                            "line %d: input ends where %s was expected",
                            t->line, what);
    return rc < 0 ? rc : GS_OK;
}

int gs_text_ints(gs_text *t, long *v, size_t n, const char *what, gs_error *err)
{
    const char *s = t->p, *end = t->end;
    int line = t->line;

    for (size_t k = 0; k < n; k++) {
        /* Blanks are tested first: judge text is mostly digits and ' '. */
        unsigned c = 0;
        while (s < end) {
            c = (unsigned char)*s;
            if (c != ' ') {
                if (c - '\t' > '\r' - '\t')
                    break;
                line += c == '\n';
            }
            s++;
        }
        /* Up to 18 digits cannot overflow. Anything else (the end, a sign,
         * no digit, a longer number, a stray byte after it) takes the
         * careful way. */
        const char *start = s;
        unsigned long x = c - '0';
        if (s == end || x > 9)
            goto slow;
        while (++s < end && (c = (unsigned char)*s - '0') <= 9)
            x = x * 10 + c;
        if (s - start > 18 ||
            (s < end && c + '0' != ' ' && c + '0' - '\t' > '\r' - '\t'))
            goto slow;
        v[k] = (long)x;
        continue;
    slow:;
        int rc = slow_int(t, start, line, &v[k], what, err);
        if (rc)
            return rc;
        s = t->p;
        line = t->line;
    }
    t->p = s;
    t->line = line;
    return GS_OK;
}

void gs_text_skip_line(gs_text *t)
{
    while (t->p < t->end && *t->p != '\n')
        t->p++;
    if (t->p < t->end) {
        t->p++;
        t->line++;
    }
}

int gs_text_end_line(gs_text *t, const char *what, gs_error *err)
{
    const char *s = t->p;
    while (s < t->end && *s != '\n' && is_space((unsigned char)*s))
        s++;
    if (s < t->end && *s != '\n') {
        size_t n = 0;
        while (s + n < t->end && n < 16 && !is_space((unsigned char)s[n]) &&
               (unsigned char)s[n] >= 0x20 && (unsigned char)s[n] < 0x7f)
            n++;
        if (n == 0)
            return gs_error_set(err, GS_EINVALID,
                                "line %d: byte 0x%02x after %s", t->line,
                                (unsigned char)*s, what);
        return gs_error_set(err, GS_EINVALID,
                            "line %d: unexpected '%.*s' after %s", t->line,
                            (int)n, s, what);
    }
    t->p = s;
    gs_text_skip_line(t);
    return GS_OK;
}

void gs_text_skip_blank_lines(gs_text *t)
{
    for (;;) {
        const char *s = t->p;
        while (s < t->end && *s != '\n' && is_space((unsigned char)*s))
            s++;
        if (s < t->end && *s == '\n') {
            t->p = s + 1;
            t->line++;
        } else {
            if (s >= t->end)
                t->p = s;
            return;
        }
    }
}

int gs_text_line(gs_text *t, const char **s, size_t *n)
{
    if (t->p >= t->end)
        return 0;
    const char *start = t->p, *e = t->p;
    while (e < t->end && *e != '\n')
        e++;
    size_t len = (size_t)(e - start);
    if (len > 0 && start[len - 1] == '\r')
        len--;
    *s = start;
    *n = len;
    t->p = e < t->end ? e + 1 : e;
    t->line++;
    return 1;
}
