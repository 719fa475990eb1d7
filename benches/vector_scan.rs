//! Where the vectors of recall by meaning should be searched: Sidecar's in-memory scan
//! of 8-bit vectors (what recall uses), against sqlite-vec's `vec0` table in the same
//! SQLite file (float32 with cosine distance, and 8-bit), over 100,000 random unit
//! vectors of 384 dimensions, 300 nearest per query (what recall asks for). Prints
//! figures; asserts nothing.
//!
//! Run: `cargo bench --bench vector_scan`

use std::time::{Duration, Instant};

use sidecar_memory::Key;
use sidecar_memory::Quantized;
use sidecar_memory::VectorIndex;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};

const VECTORS: usize = 100_000;
const DIM: usize = 384;
const QUERIES: usize = 100;
const NEAREST: usize = 300;

fn unit(rng: &mut fastrand::Rng) -> Vec<f32> {
    let mut v: Vec<f32> = (0..DIM).map(|_| rng.f32() - 0.5).collect();
    sidecar_memory::normalize(&mut v);
    v
}

fn f32_blob(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn summary(name: &str, mut times: Vec<Duration>) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("  {name:<40} median {:>7.1} ms, p95 {:>7.1} ms", ms(times[times.len() / 2]), ms(times[times.len() * 95 / 100]));
}

/// One way of storing the vectors in sqlite-vec, with its statements.
struct Variant {
    name: &'static str,
    create: &'static str,
    insert: &'static str,
    search: &'static str,
    eight_bit: bool,
}

#[tokio::main]
async fn main() {
    // SAFETY: registers sqlite-vec's entry point for every connection opened from now on;
    // the function has the signature SQLite expects of an extension's init.
    unsafe {
        type Init =
            unsafe extern "C" fn(*mut libsqlite3_sys::sqlite3, *mut *mut std::ffi::c_char, *const libsqlite3_sys::sqlite3_api_routines) -> std::ffi::c_int;
        libsqlite3_sys::sqlite3_auto_extension(Some(std::mem::transmute::<*const (), Init>(sqlite_vec::sqlite3_vec_init as *const ())));
    }
    let mut rng = fastrand::Rng::with_seed(11);
    let vectors: Vec<Vec<f32>> = (0..VECTORS).map(|_| unit(&mut rng)).collect();
    let queries: Vec<Vec<f32>> = (0..QUERIES).map(|_| unit(&mut rng)).collect();
    println!("{VECTORS} vectors of {DIM} dimensions, {NEAREST} nearest per query, {QUERIES} queries:");

    let mut index = VectorIndex::default();
    for (i, v) in vectors.iter().enumerate() {
        index.insert(Key::message(i as i64), &Quantized::from_f32(v));
    }
    let times = queries
        .iter()
        .map(|q| {
            let q = Quantized::from_f32(q);
            let started = Instant::now();
            std::hint::black_box(index.nearest(&q, NEAREST, |_| true));
            started.elapsed()
        })
        .collect();
    summary("in memory, 8-bit (Sidecar)", times);
    println!("  {:<40} {:.1} MB in memory", "", index.memory_bytes() as f64 / 1e6);

    let dir = tempfile::tempdir().unwrap();
    let options = SqliteConnectOptions::new().filename(dir.path().join("vec.db")).create_if_missing(true);
    let pool = SqlitePoolOptions::new().max_connections(1).connect_with(options).await.unwrap();
    let (version,): (String,) = sqlx::query_as("SELECT vec_version()").fetch_one(&pool).await.unwrap();
    let variants = [
        Variant {
            name: "sqlite-vec, float32 cosine",
            create: "CREATE VIRTUAL TABLE vec_f32 USING vec0(embedding float[384] distance_metric=cosine)",
            insert: "INSERT INTO vec_f32 (rowid, embedding) VALUES (?, ?)",
            search: "SELECT rowid, distance FROM vec_f32 WHERE embedding MATCH ? AND k = 300",
            eight_bit: false,
        },
        Variant {
            name: "sqlite-vec, 8-bit L2",
            create: "CREATE VIRTUAL TABLE vec_i8 USING vec0(embedding int8[384])",
            insert: "INSERT INTO vec_i8 (rowid, embedding) VALUES (?, vec_int8(?))",
            search: "SELECT rowid, distance FROM vec_i8 WHERE embedding MATCH vec_int8(?) AND k = 300",
            eight_bit: true,
        },
    ];
    let bytes = |v: &[f32], eight_bit: bool| if eight_bit { Quantized::from_f32(v).values.iter().map(|x| *x as u8).collect() } else { f32_blob(v) };
    for variant in variants {
        let name = format!("{} ({version})", variant.name);
        if let Err(e) = sqlx::query(variant.create).execute(&pool).await {
            println!("  {name:<40} not measured: {e}");
            continue;
        }
        let loading = Instant::now();
        let mut tx = pool.begin().await.unwrap();
        for (i, v) in vectors.iter().enumerate() {
            sqlx::query(variant.insert).bind(i as i64).bind(bytes(v, variant.eight_bit)).execute(&mut *tx).await.unwrap();
        }
        tx.commit().await.unwrap();
        let loaded = loading.elapsed();
        let mut times = Vec::with_capacity(QUERIES);
        for q in &queries {
            let started = Instant::now();
            let rows: Vec<(i64, f64)> = sqlx::query_as(variant.search).bind(bytes(q, variant.eight_bit)).fetch_all(&pool).await.unwrap();
            times.push(started.elapsed());
            assert_eq!(rows.len(), NEAREST);
        }
        summary(&name, times);
        println!("  {:<40} inserting took {:.1} s", "", loaded.as_secs_f64());
    }
}
