//! The migrations are compiled into the store (`sqlx::migrate!`); a new one must rebuild it.

fn main() {
    println!("cargo:rerun-if-changed=../../migrations");
}
