# segue-plugin.mk: builds and installs a Segue animator plugin.
#
# The SDK installs it as PREFIX/share/segue/segue-plugin.mk
# (pkg-config --variable=makefile segue-animator); `segue new` and the
# examples include it. Set, then include:
#
#   PLUGIN  = FadeUp          # the plugin is $(OUT)/libFadeUp.so
#   SOURCES = fade_up.c       # C (.c) or C++ (.cpp): built by the rule below;
#   CRATE   = fade_up         # or Rust: the cdylib crate (Cargo.toml, src/*.rs)
#                             # built offline by cargo, and `make test` its tests;
#                             # in another language, leave both empty and
#                             # write the rule for $(PLUGIN_LIB) yourself
#   include /path/to/segue-plugin.mk
#
# Then:
#   make                # $(OUT)/lib$(PLUGIN).so
#   make install        # into PLUGINDIR: your plugin folder,
#                       # ${XDG_DATA_HOME:-~/.local/share}/segue/plugins
#   make install PLUGINDIR="$(pkg-config --variable=plugindir segue-animator)"
#                       # the installation's folder, for every user
#   make uninstall, make clean
#
# Any of these may be set on the command line or before the include:
#   OUT           where the plugin is built (default .)
#   SEGUE_INCLUDE the folder holding segue_animator.h (default: the SDK's,
#                 found beside this file)
#   SEGUE_CFLAGS  how to find the header (default -I$(SEGUE_INCLUDE))
#   CFLAGS, CXXFLAGS, PLUGINDIR, CARGO, CARGO_TARGET_DIR (default ./target)

ifeq ($(strip $(PLUGIN)),)
$(error segue-plugin.mk: set PLUGIN, the animator library's name (as in libPLUGIN.so), before including it)
endif

SEGUE_SDK_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
# Installed: PREFIX/share/segue/segue-plugin.mk beside PREFIX/include. In Segue's source tree: SDK/.
SEGUE_INCLUDE ?= $(abspath $(dir $(firstword $(wildcard \
    $(SEGUE_SDK_DIR)/../../include/segue_animator.h \
    $(SEGUE_SDK_DIR)/../Sources/AnimatorABI/include/segue_animator.h))))
ifeq ($(origin SEGUE_CFLAGS)$(SEGUE_INCLUDE),undefined)
$(error segue-plugin.mk: cannot find segue_animator.h from $(SEGUE_SDK_DIR) (expected ../../include, or ../Sources/AnimatorABI/include in Segue's source tree): set SEGUE_INCLUDE to the folder holding it)
endif
SEGUE_CFLAGS ?= -I$(SEGUE_INCLUDE)
CFLAGS ?= -std=c11 -O2 -Wall -Wextra
CXXFLAGS ?= -std=c++17 -O2 -Wall -Wextra
OUT ?= .
XDG_DATA_HOME ?= $(HOME)/.local/share
PLUGINDIR ?= $(XDG_DATA_HOME)/segue/plugins
PLUGIN_LIB = $(OUT)/lib$(PLUGIN).so

.DEFAULT_GOAL := all
all: $(PLUGIN_LIB)

ifneq ($(strip $(SOURCES)),)
# C++ sources link with the C++ compiler; -z defs refuses a plugin that needs a
# library it does not link, and -lm is the maths library sin and exp come from.
SEGUE_LINK = $(if $(filter %.cpp %.cc %.cxx,$(SOURCES)),$(CXX) $(CXXFLAGS),$(CC) $(CFLAGS))
$(PLUGIN_LIB): $(SOURCES)
	@mkdir -p $(OUT)
	$(SEGUE_LINK) $(SEGUE_CFLAGS) -shared -fPIC -Wl,-z,defs -o $@ $(SOURCES) -lm
endif

ifneq ($(strip $(CRATE)),)
CARGO ?= cargo
CARGO_TARGET_DIR ?= $(CURDIR)/target
export CARGO_TARGET_DIR
$(PLUGIN_LIB): Cargo.toml $(wildcard src/*.rs)
	$(CARGO) build --release --offline
	cp "$(CARGO_TARGET_DIR)/release/lib$(CRATE).so" $@

test:
	$(CARGO) test --offline

clean::
	$(CARGO) clean

.PHONY: test
endif

# Copied beside, then renamed: a running segue never reads half a file.
install: $(PLUGIN_LIB)
	mkdir -p "$(PLUGINDIR)"
	cp "$(PLUGIN_LIB)" "$(PLUGINDIR)/.lib$(PLUGIN).so.tmp"
	chmod 755 "$(PLUGINDIR)/.lib$(PLUGIN).so.tmp"
	mv -f "$(PLUGINDIR)/.lib$(PLUGIN).so.tmp" "$(PLUGINDIR)/lib$(PLUGIN).so"

uninstall:
	rm -f "$(PLUGINDIR)/lib$(PLUGIN).so"

# A double-colon rule: a Makefile adds its own clean:: (cargo clean, rm -rf .build).
clean::
	rm -f "$(PLUGIN_LIB)" "$(PLUGIN_LIB).o"

.PHONY: all install uninstall clean
