//! The heap each thread holds: the process's allocator, counting what every thread allocates and frees, so that a command's memory is a budget like its operations.
//!
//! Scripts grow values in ways no size limit sees as they happen (a map grown key by key
//! where Rhai measures only the value stored, a closure's captures, an exact walk's states,
//! a study's tallies), so memory is counted where it is taken: every allocation adds its size
//! to the allocating thread's count and every release takes it off the releasing thread's.
//! A command reads its thread's count when it begins and is stopped when the count has grown
//! by more than its budget (`script::budget`). The count is a plain thread-local number: no
//! lock and no atomic on the allocator's path.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system's allocator, counting bytes per thread.
pub struct Counting;

thread_local! {
    /// Bytes this thread has allocated less those it has released (a value made on one thread
    /// and dropped on another counts up on the first and down on the second).
    static HELD: Cell<isize> = const { Cell::new(0) };
}

#[inline]
fn count(delta: isize) {
    // `const` and without a destructor: readable at any point of a thread's life, and never allocates.
    HELD.with(|held| held.set(held.get().wrapping_add(delta)));
}

// SAFETY: every call is passed to the system's allocator unchanged; only a thread-local number
// is written beside it.
unsafe impl GlobalAlloc for Counting {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) };
        count(-(layout.size() as isize));
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            count(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// Bytes this thread holds by the count: what it allocated less what it released, since it began.
#[inline]
pub fn held() -> isize {
    HELD.with(Cell::get)
}

#[cfg(test)]
mod tests {
    use super::held;

    #[test]
    fn a_thread_counts_what_it_allocates_and_releases() {
        let before = held();
        let block = vec![0u8; 1 << 20];
        let during = held();
        assert!(during - before >= 1 << 20, "{}", during - before);
        drop(block);
        assert!(held() - before < 1 << 10, "{}", held() - before);
        // Another thread's allocations are its own.
        let other = std::thread::spawn(|| {
            let start = held();
            let v = vec![1u64; 1 << 16];
            (held() - start, v.len())
        });
        let (counted, _) = other.join().unwrap();
        assert!(counted >= 8 << 16);
        assert!(held() - before < 1 << 10);
    }
}
