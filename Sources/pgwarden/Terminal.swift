#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

/// Facts about where output goes.
enum Terminal {
    /// True when standard output is a terminal (progress may redraw lines there).
    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    /// True when standard error is a terminal.
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Makes standard output line-buffered, so lines appear at once in pipes and logs.
    static func lineBufferStandardOutput() {
        setvbuf(stdout, nil, _IOLBF, 0)
    }

    /// Writes one line to standard error (facts about the run, kept out of machine output).
    static func note(_ line: String) {
        fflush(stdout)
        fputs(line + "\n", stderr)
    }
}
