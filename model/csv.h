/* csv.h: a small streaming CSV reader shared by the trace format and the
 * importers.
 *
 * csv_next() reads one record at a time (so a million-row table never needs
 * to be in memory) and splits it into fields in place: RFC 4180 double quotes
 * (with "" for a quote, and newlines inside quotes), CR LF or LF line ends, a
 * last line without a newline, and a configurable separator (',' or '\t').
 * It keeps the line number of the record's first line for error messages. */
#ifndef MLS_CSV_H
#define MLS_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "model/util.h"

typedef struct csv_reader {
    FILE *fp;
    char sep;
    char quote; /* '"' (default), or 0 for formats without quoting */
    char *line; /* getline buffer */
    size_t line_cap;
    char *rec; /* the record's unquoted text; fields point into it */
    size_t rec_cap;
    char **fields;
    size_t n_fields, fields_cap;
    long line_no; /* first line of the current record */
    long next_line;
    const char *error; /* why csv_next() returned -1 (a static string) */
    long error_line;   /* the line it is about */
} csv_reader_t;

void csv_open(csv_reader_t *r, FILE *fp, char sep);
/* Reads the next record: 1 when one was read, 0 at end of file, -1 when a
 * quoted field is not closed before the end of the file or a line holds a
 * NUL byte (r->error says which, r->error_line where). Blank lines are
 * skipped. */
int csv_next(csv_reader_t *r);
void csv_close(csv_reader_t *r); /* frees buffers; does not fclose */
/* The index of the field equal to name in the current record (a header), or -1. */
long csv_column(const csv_reader_t *r, const char *name);
/* The message for a -1 from csv_next(): "PATH:LINE: <why>" into err; -1. */
int csv_fail(const csv_reader_t *r, const char *path, mls_err_t *err);

#endif
