/*
 * near — cmocka assertions for floating-point results: within eps of a
 * value, or NAN.  A failure names the expression, the value and the
 * expectation.  Include after <cmocka.h>.
 */
#ifndef LRUTOP_NEAR_H
#define LRUTOP_NEAR_H

#include <math.h>

static inline void near_(double got, double want, double eps, const char *what, const char *file,
			 int line)
{
	if (!(fabs(got - want) <= eps)) {
		print_error("%s = %.9g, expected %.9g (+-%g)\n", what, got, want, eps);
		_fail(file, line);
	}
}
#define assert_near(got, want, eps) near_((got), (want), (eps), #got, __FILE__, __LINE__)

static inline void nan_(double v, const char *what, const char *file, int line)
{
	if (!isnan(v)) {
		print_error("%s = %.9g, expected NAN\n", what, v);
		_fail(file, line);
	}
}
#define assert_nan(v) nan_((v), #v, __FILE__, __LINE__)

#endif
