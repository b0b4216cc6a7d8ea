// swift-tools-version:6.0
// Swell's benchmarks, a package of their own so that the root package names no library that only
// a benchmark needs: Cairo (libcairo2-dev), the reference renderer RasterBench times Swell
// against, is needed here and nowhere else, so building or running swell never asks for it.
//
//   RasterBench        – Swell against Cairo and a memset on bench-data/'s draw lists, with the
//                        allocation counter (Benchmarks/AllocCounter, an LD_PRELOAD shim built by
//                        gcc in scripts/bench); scripts/bench builds and runs it
//   VideoConvertBench  – Swell's YUV 4:2:0 -> XRGB kernels against libswscale
//
// Build from the repository root, e.g.
//   swift build -c release --package-path Benchmarks --scratch-path .build/bench-portable --product RasterBench
// Tuning flags are passed on the command line by scripts/bench, as for the root package.
import PackageDescription

let package = Package(
    name: "SwellBenchmarks",
    dependencies: [.package(name: "Swell", path: "..")],
    targets: [
        .systemLibrary(name: "CCairo", path: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(
            name: "CSwscale", path: "CSwscale", pkgConfig: "libswscale", providers: [.apt(["libswscale-dev"])]),
        .executableTarget(
            name: "RasterBench",
            dependencies: [
                .product(name: "SwellRaster", package: "Swell"),
                .product(name: "SwellDrawList", package: "Swell"),
                .product(name: "SwellOutput", package: "Swell"),
                .product(name: "SwellText", package: "Swell"),
                .product(name: "SwellScenes", package: "Swell"),
                "CCairo",
            ],
            path: "RasterBench"),
        // Swell's YUV 4:2:0 -> XRGB kernels against libswscale, for the video element's choice.
        .executableTarget(
            name: "VideoConvertBench",
            dependencies: [.product(name: "SwellRaster", package: "Swell"), "CSwscale"],
            path: "VideoConvertBench"),
    ]
)
