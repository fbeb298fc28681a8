/*
 * parse — the values every layer reads from text the user wrote: the one
 * rule for a number (a decimal, a whole one), sizes, intervals, clock times, replay speeds, and the
 * ranges the options table gives them (docs/options.md).  The options, a
 * talk script, the keys and a recording's reader take them from here, so
 * a value means the same wherever it is written.
 *
 * Invariants: pure functions of their text; 0 on success with *out set,
 * -1 with *out untouched.  Nothing prints, nothing allocates.
 */
#ifndef LRUTOP_PARSE_H
#define LRUTOP_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* -i: seconds between samples (and a recording's interval_s) */
#define INTERVAL_MIN 0.05
#define INTERVAL_MAX 60.0
/* --speed, a talk's replay --speed, the < > keys: a replay's pace */
#define SPEED_MIN 0.25
#define SPEED_MAX 16.0
/* the same two as help texts write them (test_parse holds them equal) */
#define SPEED_MIN_TEXT "0.25"
#define SPEED_MAX_TEXT "16"
#define INTERVAL_MIN_TEXT "0.05"
#define INTERVAL_MAX_TEXT "60"

/* A number as every option and --sweep value takes one: a plain decimal,
 * digits with at most one '.' and at least one digit ("12", "0.25", ".5"),
 * finite -- no blanks, sign, exponent, hex, "inf" or "nan" (strtod would
 * take them all: "0x10" is 16).  decimal_prefix: the one s starts with
 * into out and where it ends into end (NULL: not wanted); decimal_parse:
 * s is one, whole. */
int decimal_prefix(const char *s, double *out, const char **end);
int decimal_parse(const char *s, double *out);

/* A whole number: an optional '-' and then digits only, in a long -- no
 * blanks, '+', '.', or overflow (strtol would skip blanks and take '+'). */
int parse_whole(const char *s, long *out);
/* An option's whole-number argument, at least min; err names opt: "-n x:
 * not a whole number", "-n 0: must be at least 1". */
int parse_whole_arg(const char *opt, const char *s, long min, long *out, char *err, size_t errlen);

/* "512M" -> 536870912 (K/M/G/T in powers of 1024, an optional B or iB).
 * Rejects empty strings, signs, garbage, overflow and fractions of a byte. */
int parse_size(const char *s, uint64_t *out);
/* An option's size argument, larger than zero; err names opt: "--bs x:
 * not a size (use e.g. 512M, 4G)", "--bs 0: must be larger than zero". */
int parse_size_arg(const char *opt, const char *s, uint64_t *out, char *err, size_t errlen);
/* Seconds as a decimal number within [INTERVAL_MIN, INTERVAL_MAX]; err
 * says why not, naming -i. */
int parse_interval(const char *s, double *out, char *err, size_t errlen);
/* A time as seconds ("42", "1.5") or [h:]m:ss ("1:30"). */
int parse_clock(const char *s, double *out);
/* A replay speed factor within [SPEED_MIN, SPEED_MAX], "2" or "2x". */
int parse_speed(const char *s, double *out);

#endif
