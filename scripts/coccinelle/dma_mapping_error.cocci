// SPDX-License-Identifier: GPL-2.0
/// Every streaming DMA mapping that returns a dma_addr_t
/// (dma_map_single*(), dma_map_page*(), dma_map_resource()) must have
/// its result checked with dma_mapping_error() on every path before the
/// function returns: a failed mapping handed to the device is a DMA to
/// an arbitrary address.  Report an assignment from such a call with a
/// path on which no dma_mapping_error() of the result follows, and a
/// call whose result is not stored at all (it cannot be checked).
//
// Confidence: High
// Options: --no-includes --include-headers
//
// Run:  spatch -D report --very-quiet --sp-file scripts/coccinelle/dma_mapping_error.cocci \
//         --no-includes --include-headers src/*.c include/*.h

virtual report

@unchecked depends on report exists@
identifier fn =~ "^dma_map_(single|page|resource)(_attrs)?$";
expression addr, dev;
position p;
@@

addr = fn@p(dev, ...);
... when != dma_mapping_error(dev, addr)

@stored depends on report@
identifier fn =~ "^dma_map_(single|page|resource)(_attrs)?$";
expression addr;
position p;
@@

addr = fn@p(...)

@unstored depends on report@
identifier fn =~ "^dma_map_(single|page|resource)(_attrs)?$";
position p != stored.p;
@@

fn@p(...)

@script:python depends on report@
p << unchecked.p;
fn << unchecked.fn;
@@

coccilib.report.print_report(p[0],
    "ERROR: %s() result not checked with dma_mapping_error() on every path" % fn)

@script:python depends on report@
p << unstored.p;
fn << unstored.fn;
@@

coccilib.report.print_report(p[0],
    "ERROR: %s() result not stored, so it cannot be checked with dma_mapping_error()" % fn)
