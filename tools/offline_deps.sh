#!/usr/bin/env bash
# The project's non-torch libraries for a machine with no package registry (a lent GPU machine
# that brings its own PyTorch): Debian's packages, downloaded here and unpacked there into a
# prefix of their own, never into /.
#
#   tools/offline_deps.sh download DIR   # here (Debian 12, apt): the .deb files into DIR
#   source <(tools/offline_deps.sh env DIR PREFIX)
#                                        # there: unpack DIR into PREFIX, print the exports that
#                                        # point CMake, pkg-config, the linker and the loader at it
set -euo pipefail

# The libraries CMakeLists.txt finds, and the runtime libraries they need that a CUDA image may
# lack (HDF5 pulls in libcurl and its TLS / Kerberos stack). libc, libstdc++ and zlib are the
# machine's own.
packages=(
  libhdf5-dev hdf5-helpers libhdf5-103-1 libhdf5-cpp-103-1 libhdf5-hl-100 libhdf5-hl-cpp-100 libaec0 libaec-dev libsz2
  libyaml-cpp-dev libyaml-cpp0.7 libsentencepiece-dev libsentencepiece0 libfmt-dev libfmt9
  libgtest-dev libgmock-dev googletest libbenchmark-dev libbenchmark1debian libcli11-dev nlohmann-json3-dev
  libpcre2-dev libpcre2-8-0 libpcre2-16-0 libpcre2-32-0 libpcre2-posix3 libicu-dev libicu72 icu-devtools
  pkgconf pkgconf-bin libpkgconf3 pkg-config
  zlib1g-dev libjpeg62-turbo libjpeg62-turbo-dev libjpeg-dev libssl-dev libssl3
  libcurl4 libcurl4-openssl-dev libbrotli1 libcom-err2 libkrb5support0 libk5crypto3 libkeyutils1 libkrb5-3
  libgssapi-krb5-2 libunistring2 libidn2-0 libgmp10 libnettle8 libhogweed6 libffi8 libp11-kit0 libtasn1-6
  libgnutls30 libdb5.3 libsasl2-modules-db libsasl2-2 libldap-2.5-0 libnghttp2-14 libpsl5 librtmp1 libssh2-1 libzstd1
)

die() { echo "offline_deps: $*" >&2; exit 1; }

case "${1:-}" in
  download)
    dir=${2:?usage: offline_deps.sh download DIR}
    mkdir -p "$dir"
    (cd "$dir" && apt-get download "${packages[@]}")
    echo "offline_deps: $(ls "$dir"/*.deb | wc -l) packages, $(du -sh "$dir" | cut -f1) in $dir" >&2
    ;;
  env)
    dir=${2:?usage: offline_deps.sh env DIR PREFIX}
    prefix=${3:?usage: offline_deps.sh env DIR PREFIX}
    ls "$dir"/*.deb >/dev/null 2>&1 || die "no .deb files in $dir: run 'tools/offline_deps.sh download $dir' on a Debian machine first"
    mkdir -p "$prefix"
    prefix=$(cd "$prefix" && pwd)
    for deb in "$dir"/*.deb; do
      if command -v dpkg-deb >/dev/null; then
        dpkg-deb -x "$deb" "$prefix" || die "cannot unpack $deb"
      else  # a .deb is an ar archive holding data.tar.*
        (cd "$prefix" && ar p "$deb" "$(ar t "$deb" | grep '^data\.tar')" | tar -xJ) || die "cannot unpack $deb"
      fi
    done
    usr="$prefix/usr"
    lib="$usr/lib/x86_64-linux-gnu"
    # Absolute prefixes written into the packages' text files now point into PREFIX.
    sed -i "s#^prefix=/usr#prefix=$usr#" "$lib"/pkgconfig/*.pc "$usr"/share/pkgconfig/*.pc
    sed -i "s#^prefix=\"/usr\"#prefix=\"$usr\"#" "$usr"/bin/h5cc "$usr"/bin/h5c++
    # libz.so points at Debian's libz.so.1.x under /lib; use the machine's own.
    zlib=$(PATH=$PATH:/sbin:/usr/sbin ldconfig -p | awk '/libz\.so\.1 .*x86-64/ {z = $NF} END {print z}')
    [ -n "$zlib" ] && ln -sf "$zlib" "$lib/libz.so"
    echo "export CMAKE_PREFIX_PATH=$usr\${CMAKE_PREFIX_PATH:+:\$CMAKE_PREFIX_PATH}"
    echo "export PATH=\$PATH:$usr/bin"  # after the machine's own tools: pkg-config where it has none
    echo "export PKG_CONFIG_PATH=$lib/pkgconfig:$usr/share/pkgconfig"
    echo "export LD_LIBRARY_PATH=$lib:$lib/hdf5/serial\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
    echo "export FALCON_HDF5_CMAKE_ARGS='-DHDF5_C_COMPILER_EXECUTABLE=$usr/bin/h5cc -DHDF5_CXX_COMPILER_EXECUTABLE=$usr/bin/h5c++'"
    ;;
  *)
    die "usage: offline_deps.sh download DIR | env DIR PREFIX"
    ;;
esac
