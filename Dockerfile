# attestation-server and attestation-admin in a slim Debian image.
#
#   docker build -t attestation .
#   docker volume create attestation
#   docker run --rm -v attestation:/etc/attestation attestation \
#       attestation-admin init --base-url https://attestation.example.org
#   docker run -d --name attestation -p 127.0.0.1:8080:8080 -v attestation:/etc/attestation attestation
#   docker exec attestation attestation-admin mint --help
#
# The configuration, the keys and the revocation list live on the volume /etc/attestation (the
# working directory, so attestation-admin finds config.json there); the site is in the image.
# docs/deployment.md covers TLS, the proxy, compose and replicas.
#
# scripts/stress/check-image-deps.py reads BUILD_FLAGS and RUNTIME_PACKAGES below (keep them one line each):
# it builds with those flags here and fails if the binaries need a library no runtime package gives.

# Same Debian release in both stages: the binaries link the -dev packages' libraries of the
# first and run against the runtime packages of the second. Debian 12 (bookworm), though the
# project builds and runs on Debian 13 too (scripts/check-debian13.sh): scripts/stress/check-image-deps.py
# rebuilds and runs this runtime stage on CI's Debian 12 machine, so this is the image proven on
# every change; Debian 12 has security updates through Debian LTS until June 2028. For Debian 13,
# set both to its images (…-trixie, debian:trixie-slim): the package names below are the same
# there (apt picks the t64 libraries).
ARG SWIFT_IMAGE=swift:6.3-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

FROM ${SWIFT_IMAGE} AS build
# The Swift standard library and Foundation go inside the binaries; only Debian's C libraries
# stay shared, so the runtime stage needs no toolchain.
ARG BUILD_FLAGS="-c release --static-swift-stdlib"
ARG BUILD_PACKAGES="libmicrohttpd-dev nettle-dev libhpdf-dev libqrencode-dev libpng-dev libharfbuzz-dev libcairo2-dev zlib1g-dev pkg-config"
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${BUILD_PACKAGES} \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Dependencies first, so a change of the sources alone does not fetch them again.
COPY Package.swift ./
RUN swift package resolve
COPY Sources Sources
# The site, embedded in the server at build time (Sources/PublicSite/Public leads here).
COPY Public Public
COPY Benchmarks Benchmarks
COPY Tests Tests
RUN swift build ${BUILD_FLAGS} --product attestation-server \
 && swift build ${BUILD_FLAGS} --product attestation-admin \
 && mkdir -p /out/bin /out/doc \
 && cp "$(swift build ${BUILD_FLAGS} --show-bin-path)/attestation-server" \
       "$(swift build ${BUILD_FLAGS} --show-bin-path)/attestation-admin" /out/bin/ \
 && strip /out/bin/* \
 && /out/bin/attestation-admin licenses > /out/doc/THIRD-PARTY-NOTICES.txt

FROM ${RUNTIME_IMAGE}
# Each library the binaries link (ldd), the font for names outside Latin-1, and the time zones.
ARG RUNTIME_PACKAGES="libmicrohttpd12 libhpdf-2.3.0 libqrencode4 libpng16-16 libharfbuzz-subset0 libcairo2 zlib1g libgnutls30 libstdc++6 libgcc-s1 fonts-dejavu-core fonts-urw-base35 tzdata"
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${RUNTIME_PACKAGES} \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --home-dir /nonexistent --shell /usr/sbin/nologin attestation \
 && install -d -o attestation -g attestation -m 0750 /etc/attestation
COPY --from=build /out/bin/ /usr/local/bin/
# The licences of every component, as /licenses serves them; Debian's packages keep their own
# copyright files under /usr/share/doc.
COPY --from=build /out/doc/THIRD-PARTY-NOTICES.txt /usr/share/doc/attestation-links/

USER attestation
WORKDIR /etc/attestation
VOLUME /etc/attestation
EXPOSE 8080
# bash and its /dev/tcp are in every Debian image, so no HTTP client is installed for this.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
CMD ["attestation-server", "--config", "/etc/attestation/config.json", "--host", "0.0.0.0"]
