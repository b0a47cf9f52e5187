/* prelude.h: the text shared by the generated files' preludes. */
#ifndef TC_PRELUDE_H
#define TC_PRELUDE_H

extern const char emit_prelude_common[];
extern const char emit_prelude_shifts[];
extern const char emit_prelude_fp8[];   /* after the common part, where the kernel has fp8 values */

#endif
