// The program that owns a precompiled header of the test programs (tests/support/CMakeLists.txt): no
// tests of its own; its main is the test main it links.
