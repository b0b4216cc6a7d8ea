extension UnsafeBufferPointer {
    /// Calls `body` with the element at `index` as a bitwise copy whose references are neither
    /// retained nor released: for elements that something else keeps alive and unchanged for the
    /// whole call (a frame's commands, which the `DisplayList` holds while it is drawn).
    ///
    /// Why: reading an element with references (a glyph run's arrays, a picture's buffer) and
    /// handing it to a call the compiler cannot see through makes it retain and release them
    /// around the call, since that call might overwrite the element's memory; `switch` on the
    /// element, `borrowing` parameters and array indexing all did so (Swift 6.3, -O). The
    /// renderer read every command three to four times a frame so: ~580 retains and as many
    /// releases in a warm frame of text-page.json's 73 commands (docs/speed.md, "Text"). The copy
    /// here is moved out of a stack slot and back in, so the compiler sees an owned value it
    /// need not copy, and never destroys it. Whatever `body` keeps (appends to an array) is
    /// copied as usual.
    @inline(__always)
    func withUnretained<Result>(_ index: Int, _ body: (borrowing Element) -> Result) -> Result {
        assert(index >= 0 && index < count)
        return withUnsafeTemporaryAllocation(of: Element.self, capacity: 1) { slot in
            let slot = slot.baseAddress.unsafelyUnwrapped
            UnsafeMutableRawPointer(slot).copyMemory(
                from: baseAddress.unsafelyUnwrapped + index, byteCount: MemoryLayout<Element>.size)
            let element = slot.move()
            let result = body(element)
            // Back into the slot, which is left as it is: the references are not released.
            slot.initialize(to: consume element)
            return result
        }
    }
}
