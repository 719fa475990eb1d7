//! Arithmetic on 8-bit vector components, the inner loop of every scan.

/// The dot product of two rows of 8-bit components (the compiler vectorises it).
pub(crate) fn dot(a: &[i8], b: &[i8]) -> i32 {
    a.iter().zip(b).map(|(x, y)| i32::from(*x) * i32::from(*y)).sum()
}
