// SPDX-License-Identifier: GPL-2.0
/// Every DMA-API call of ronic lives in src/ronic_dma.c, so that the
/// relaxed-ordering choice (DMA_ATTR_* and sync policy) is made in one
/// place.  Report any call to dma_map_*(), dma_unmap_*(), dma_sync_*(),
/// dma_alloc_*()/dma_free_*() (coherent, noncoherent, attrs, pages),
/// their managed dmam_* forms, dma_pool_*(), or a page_pool_*dma*()
/// helper (page_pool_get_dma_addr(), page_pool_dma_sync_for_cpu(), ...)
/// in any other file.  A function that is only named, not called (a
/// function pointer taken), is reported too.
///
/// The exclusion of ronic_dma.c is made here, in the python rule, not by
/// the caller: the rule then says the whole policy, and scripts/check.sh
/// runs every rule alike over every file of src/ and include/.
//
// Confidence: High
// Options: --no-includes --include-headers
//
// Run:  spatch -D report --very-quiet --sp-file scripts/coccinelle/dma_api.cocci \
//         --no-includes --include-headers src/*.c include/*.h

virtual report

@dma_call depends on report@
identifier fn =~ "^(dma_(map|unmap|sync)_|dmam?_(alloc|free)_|dmam?_pool_|page_pool_.*dma|xsk_.*dma)";
expression list args;
position p;
@@

fn@p(args)

// A name used as a value (&fn, or fn stored in an ops table), not a call.
@dma_ref depends on report@
identifier fn =~ "^(dma_(map|unmap|sync)_|dmam?_(alloc|free)_|dmam?_pool_|page_pool_.*dma|xsk_.*dma)";
expression list args;
position p != dma_call.p;
@@

(
fn(args)
|
fn@p
)

@script:python depends on report@
p << dma_call.p;
fn << dma_call.fn;
@@

import os.path
if os.path.basename(p[0].file) != "ronic_dma.c":
    coccilib.report.print_report(p[0],
        "ERROR: DMA API call %s() outside src/ronic_dma.c" % fn)

@script:python depends on report@
p << dma_ref.p;
fn << dma_ref.fn;
@@

import os.path
if os.path.basename(p[0].file) != "ronic_dma.c":
    coccilib.report.print_report(p[0],
        "ERROR: DMA API function %s named outside src/ronic_dma.c" % fn)
