//! `sqlx::migrate!` embeds the migrations when the crate builds: a migration added or
//! changed builds it again.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
    println!("cargo:rerun-if-changed=migrations_pg");
}
