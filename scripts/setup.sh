#!/bin/sh
# Installs what the build and the tests need on Debian or Ubuntu.
set -e
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
export DEBIAN_FRONTEND=noninteractive
as_root apt-get update -qq
# gcc and clang build the tools (clang for the sanitizers and fuzzers);
# hipcc checks the HIP output; python3 reads JSON in the warpcheck suite;
# python3-dev, python3-numpy, python3-pytest and python3-pip (with setuptools and wheel)
# build, test and install the Python package;
# cmake and pkg-config build examples/export against `make install`.
as_root apt-get install -y -qq --no-install-recommends make gcc clang hipcc python3 python3-dev python3-numpy python3-pytest python3-pip python3-setuptools python3-wheel patch cmake pkg-config >/dev/null
