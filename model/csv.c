/* csv.c: streaming CSV records with RFC 4180 quoting (see csv.h). */
#include "model/csv.h"

#include "model/util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

void csv_open(csv_reader_t *r, FILE *fp, char sep)
{
    memset(r, 0, sizeof *r);
    r->fp = fp;
    r->sep = sep;
    r->quote = '"';
    r->next_line = 1;
}

void csv_close(csv_reader_t *r)
{
    free(r->line);
    free(r->rec);
    free(r->fields);
    r->line = r->rec = NULL;
    r->fields = NULL;
}

/* One physical line without its end: its length, -1 at the end of the
 * file, -2 when it holds a NUL byte (a text input never does: reading on
 * would silently cut the line there). */
static ssize_t read_line(csv_reader_t *r)
{
    ssize_t n = getline(&r->line, &r->line_cap, r->fp);
    if (n < 0)
        return -1;
    if (memchr(r->line, '\0', (size_t)n)) {
        r->error = "a NUL byte: a text input must not contain one";
        r->error_line = r->next_line;
        return -2;
    }
    r->next_line++;
    while (n > 0 && (r->line[n - 1] == '\n' || r->line[n - 1] == '\r'))
        r->line[--n] = '\0';
    return n;
}

static inline void add_field(csv_reader_t *r, size_t off)
{
    if (r->n_fields + 1 > r->fields_cap)
        xgrow((void **)&r->fields, &r->fields_cap, r->n_fields + 1, sizeof *r->fields);
    r->fields[r->n_fields++] = (char *)(uintptr_t)off; /* fixed up to pointers at the end */
}

static inline void put(csv_reader_t *r, size_t *len, char c)
{
    if (*len + 2 > r->rec_cap)
        xgrow((void **)&r->rec, &r->rec_cap, *len + 2, 1);
    r->rec[(*len)++] = c;
}

int csv_next(csv_reader_t *r)
{
    ssize_t n;
    do {
        r->line_no = r->next_line;
        n = read_line(r);
        if (n == -1)
            return 0;
        if (n < 0)
            return -1;
    } while (n == 0);
    size_t len = 0;
    r->n_fields = 0;
    add_field(r, 0);
    const char *s = r->line;
    int quoted = 0;
    for (;;) {
        char c = *s++;
        if (c == '\0') {
            if (!quoted)
                break;
            /* a newline inside quotes: the record goes on */
            ssize_t more = read_line(r);
            if (more == -1) {
                r->error = "a quoted field is not closed before the end of the file";
                r->error_line = r->line_no;
            }
            if (more < 0)
                return -1;
            put(r, &len, '\n');
            s = r->line;
            continue;
        }
        if (quoted) {
            if (c == r->quote && *s == r->quote) {
                put(r, &len, '"');
                s++;
            } else if (c == r->quote) {
                quoted = 0;
            } else {
                put(r, &len, c);
            }
        } else if (c == r->quote && c) {
            quoted = 1;
        } else if (c == r->sep) {
            put(r, &len, '\0');
            add_field(r, len);
        } else {
            put(r, &len, c);
        }
    }
    put(r, &len, '\0');
    for (size_t i = 0; i < r->n_fields; i++)
        r->fields[i] = r->rec + (uintptr_t)r->fields[i];
    return 1;
}

long csv_column(const csv_reader_t *r, const char *name)
{
    for (size_t i = 0; i < r->n_fields; i++)
        if (!strcmp(r->fields[i], name))
            return (long)i;
    return -1;
}

int csv_fail(const csv_reader_t *r, const char *path, mls_err_t *err)
{
    return mls_fail(err, "%s:%ld: %s", path, r->error_line,
                    r->error ? r->error : "unreadable record");
}
