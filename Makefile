# SPDX-License-Identifier: GPL-2.0
#
# ronic: out-of-tree build and every developer target.
#
#   make                 build ronic.ko against the running kernel
#   make KDIR=<tree>     build against another kernel tree or headers
#   make install         install into /lib/modules/<release>/updates
#   make dkms-install  add, build and install ronic through DKMS (KVER=<release>)
#   make dkms-remove   remove every DKMS ronic and its /usr/src copy
#   make check           sparse, W=1, checkpatch --strict, coccinelle
#   make cross           ronic.ko for x86_64, arm64 and sparc64 (W=1, no warning)
#   make intree          build in linux-source-6.12 (scripts/intree.sh, cached)
#   make test            every test (VM based); ends with "N passed, N failed, N skipped"
#   make test-debug      build/reuse the debug kernel (KASAN, lockdep, DMA-API
#                        debug, kmemleak), run a test subset in it (IOMMU=1:
#                        with the IOMMU, IOMMU=both: without, then with)
#   make demo            build, boot the test bed, show ronic carrying traffic
#   make bench           ronic against igb in the test bed: bench/report.md
#   make planted-bugs    the debug boot's planted bugs alone (make test has them):
#                        each must be caught by its own detector
#   make fuzz SEED=N OPS=N  the control-plane fuzzer in the debug kernel
#                        (make test runs 200 operations of seed 1)

ifneq ($(KERNELRELEASE),)
include $(src)/Kbuild
else

SHELL := /bin/bash
TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))

# The guest kernel of the VM test bed (see scripts/kernel-version.sh).
GUEST_KVER := $(shell . $(TOP)/scripts/kernel-version.sh && ronic_guest_kver)
GUEST_KDIR := /usr/src/linux-headers-$(GUEST_KVER)

# A user's build goes against the running kernel; a machine without its
# headers (a CI box running another kernel) falls back to the guest's.
RUNNING_KDIR := /lib/modules/$(shell uname -r)/build
ifeq ($(wildcard $(RUNNING_KDIR)/Makefile),)
KDIR ?= $(GUEST_KDIR)
else
KDIR ?= $(RUNNING_KDIR)
endif

KBUILD := $(MAKE) -C $(KDIR) M=$(TOP)

DKMS_VERSION := $(shell cat $(TOP)/VERSION)
DKMS_SRC := /usr/src/ronic-$(DKMS_VERSION)
KVER ?= $(shell uname -r)

.PHONY: all modules clean install modules_install dkms-install dkms-remove check cross intree test test-debug demo bench planted-bugs fuzz help

all: modules

modules:
	$(KBUILD) W=1 modules

clean:
	$(KBUILD) clean
	rm -rf $(TOP)/results

install modules_install: modules
	$(KBUILD) INSTALL_MOD_DIR=updates modules_install
	depmod -a $(shell $(MAKE) -s -C $(KDIR) kernelrelease 2>/dev/null)

dkms-install:
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)
	cp -r $(TOP)/VERSION $(TOP)/Kbuild $(TOP)/Makefile $(TOP)/dkms.conf \
		$(TOP)/include $(TOP)/src $(TOP)/scripts $(DKMS_SRC)/
	dkms add -m ronic -v $(DKMS_VERSION)
	dkms build -m ronic -v $(DKMS_VERSION) -k $(KVER)
	dkms install -m ronic -v $(DKMS_VERSION) -k $(KVER)

dkms-remove:
	-dkms remove -m ronic -v $(DKMS_VERSION) --all
	rm -rf $(DKMS_SRC)

check:
	KDIR=$(KDIR) $(TOP)/scripts/check.sh

cross:
	$(TOP)/scripts/cross.sh

intree:
	$(TOP)/scripts/intree.sh

test:
	$(TOP)/tests/run.sh

test-debug:
	$(TOP)/tests/run-debug.sh $(if $(filter both,$(IOMMU)),--both,$(if $(filter 1,$(IOMMU)),--iommu))

bench:
	$(TOP)/scripts/bench.sh

planted-bugs:
	RONIC_DEBUG_ONLY=planted $(TOP)/tests/run-debug.sh

fuzz:
	RONIC_DEBUG_ONLY=fuzz RONIC_FUZZ_SEED=$(or $(SEED),1) RONIC_FUZZ_OPS=$(or $(OPS),500) \
		$(TOP)/tests/run-debug.sh

demo:
	$(TOP)/scripts/demo.sh

help:
	@sed -n 's/^#   //p' $(TOP)/Makefile

endif
