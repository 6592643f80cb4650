import Foundation

extension Process {
    /// Waits until the process has ended, noticing its end within a few milliseconds.
    ///
    /// On Linux, swift-corelibs-foundation's `waitUntilExit()` runs the run loop in
    /// 50 ms slices, so every short program (`pg_config`, `postgres --version`, `cp`)
    /// cost about 50 ms of waiting after it had ended: a quarter of `pgwarden dev`
    /// on a warm cache (issue 18, measured with `strace -f` and bench/dev.sh).
    /// Polling `isRunning` notices the end at once; `waitUntilExit()` then returns
    /// immediately and makes `terminationStatus` valid.
    package func waitUntilExitPromptly() {
        var pause: useconds_t = 200
        while isRunning {
            usleep(pause)
            pause = min(pause * 2, 5_000)
        }
        waitUntilExit()
    }
}
