/* test_api.c - the API surface over HTTP: strict input (unknown fields and
 * query parameters), CORS origins and headers, GET /version and the
 * build-info metric, JSON logs with traceparent, and the cacheable
 * OpenAPI document (ETag, If-None-Match).
 *
 * Requests go through api_req below rather than the harness's gs_http:
 * these tests look at headers the harness does not keep (Vary, ETag,
 * Cache-Control, ...), so every response header is kept here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include "itest.h"
#include "suites.h"

/* A response with all its header lines. */
typedef struct api_resp {
    long status;
    char headers[8192]; /* "name: value\r\n" lines, as received */
    size_t hlen;
    char *body;
    size_t len;
} api_resp;

static size_t api_on_header(char *ptr, size_t size, size_t nmemb, void *ud)
{
    api_resp *r = ud;
    size_t n = size * nmemb;
    if (n >= 5 && strncmp(ptr, "HTTP/", 5) == 0)
        r->hlen = 0; /* a new response (after 100 Continue) */
    if (r->hlen + n < sizeof r->headers) {
        memcpy(r->headers + r->hlen, ptr, n);
        r->hlen += n;
        r->headers[r->hlen] = '\0';
    }
    return n;
}

static size_t api_on_body(char *ptr, size_t size, size_t nmemb, void *ud)
{
    api_resp *r = ud;
    size_t n = size * nmemb;
    char *p = realloc(r->body, r->len + n + 1);
    if (!p)
        return 0;
    memcpy(p + r->len, ptr, n);
    r->body = p;
    r->len += n;
    r->body[r->len] = '\0';
    return n;
}

/* One request: method, path, extra header lines (NULL-ended, may be NULL),
 * and an optional body with its Content-Type. Fails the test when the
 * transfer fails. */
static void api_req(const gs_srv *s, const char *method, const char *path,
                    const char *const *headers, const char *ctype,
                    const char *body, api_resp *r)
{
    char url[1024], ct[128];
    struct curl_slist *h = curl_slist_append(NULL, "Expect:");
    CURL *c = curl_easy_init();

    memset(r, 0, sizeof *r);
    ck_assert_ptr_nonnull(c);
    snprintf(url, sizeof url, "%s%s", s->base, path);
    for (size_t i = 0; headers && headers[i]; i++)
        h = curl_slist_append(h, headers[i]);
    if (ctype) {
        snprintf(ct, sizeof ct, "Content-Type: %s", ctype);
        h = curl_slist_append(h, ct);
    }
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, 20000L);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, api_on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, r);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, api_on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, r);
    if (body) {
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE,
                         (curl_off_t)strlen(body));
    }
    if (strcmp(method, "HEAD") == 0)
        curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    else if (strcmp(method, "GET") != 0 && strcmp(method, "POST") != 0)
        curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
    CURLcode rc = curl_easy_perform(c);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
    curl_slist_free_all(h);
    curl_easy_cleanup(c);
    ck_assert_msg(rc == CURLE_OK, "%s %s: curl %d", method, path, (int)rc);
}

static void api_free(api_resp *r)
{
    free(r->body);
    r->body = NULL;
}

/* The value of header `name` (copied into out), or NULL when absent. */
static const char *api_header(const api_resp *r, const char *name, char *out,
                              size_t outlen)
{
    size_t nl = strlen(name);
    for (const char *line = r->headers; *line;) {
        const char *eol = strstr(line, "\r\n");
        size_t n = eol ? (size_t)(eol - line) : strlen(line);
        if (n > nl && strncasecmp(line, name, nl) == 0 && line[nl] == ':') {
            const char *v = line + nl + 1;
            while (*v == ' ')
                v++;
            size_t vl = n - (size_t)(v - line);
            if (vl >= outlen)
                vl = outlen - 1;
            memcpy(out, v, vl);
            out[vl] = '\0';
            return out;
        }
        line += n;
        if (*line == '\r')
            line += 2;
    }
    return NULL;
}

/* Asserts a 400 problem whose detail is exactly `detail`. */
static void assert_400(const api_resp *r, const char *detail)
{
    ck_assert_msg(r->status == 400, "HTTP %ld: %s", r->status,
                  r->body ? r->body : "");
    cJSON *j = cJSON_Parse(r->body);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(itest_str(j, "type"), GS_PROBLEM_BASE "bad-request");
    ck_assert_str_eq(itest_str(j, "detail"), detail);
    cJSON_Delete(j);
}

/* ---- strict input ------------------------------------------------------- */

START_TEST(unknown_fields_are_400)
{
    gs_srv s;
    api_resp r;
    ITEST_START(&s, NULL);

    api_req(&s, "POST", "/solve/curling", NULL, "application/json",
            "{\"board\": [[2,0,3]], \"max_throw\": 3}", &r);
    assert_400(&r, "unknown field \"max_throw\"; did you mean "
                   "\"max_throws\"?");
    api_free(&r);
    api_req(&s, "POST", "/solve/sokoban", NULL, "application/json",
            "{\"grid\": [\"#@$.#\"], \"optimise\": \"pushes\"}", &r);
    assert_400(&r, "unknown field \"optimise\"; did you mean \"optimize\"?");
    api_free(&r);
    api_req(&s, "POST", "/solve/bloxorz", NULL, "application/json",
            "{\"grid\": [\"XO\"], \"limits\": {\"timeout\": 5}}", &r);
    assert_400(&r, "unknown field \"limits.timeout\"; did you mean "
                   "\"limits.timeout_ms\"?");
    api_free(&r);
    /* The same body spelt right is solved. */
    api_req(&s, "POST", "/solve/curling", NULL, "application/json",
            "{\"board\": [[2,0,3]], \"max_throws\": 3}", &r);
    ck_assert_int_eq(r.status, 200);
    api_free(&r);
    ITEST_STOP(&s);
}
END_TEST

START_TEST(unknown_query_parameters_are_400)
{
    gs_srv s;
    api_resp r;
    ITEST_START(&s, NULL);

    api_req(&s, "POST", "/solve/curling?timeout=50", NULL, "text/plain",
            "2 1\n3 2\n0 0\n", &r);
    assert_400(&r, "unknown query parameter \"timeout\"; did you mean "
                   "\"timeout_ms\"?");
    api_free(&r);
    api_req(&s, "POST", "/solve/bloxorz?timeout_ms=500", NULL,
            "application/json", "{\"grid\": [\"XO\"]}", &r);
    assert_400(&r, "query parameter \"timeout_ms\" is for judge text mode; "
                   "in JSON mode send \"limits\": {\"timeout_ms\": N} in "
                   "the body");
    api_free(&r);
    api_req(&s, "POST", "/solve/curling?max_states=1000&timeout_ms=500", NULL,
            "text/plain", "2 1\n3 2\n0 0\n", &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.body, "1\n");
    api_free(&r);
    ITEST_STOP(&s);
}
END_TEST

Suite *gs_itest_api_suite(void)
{
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, unknown_fields_are_400);
    tcase_add_test(tc, unknown_query_parameters_are_400);
    suite_add_tcase(s, tc);
    return s;
}
