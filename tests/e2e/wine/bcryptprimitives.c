/* bcryptprimitives.dll for Wine 8, which lacks it: Rust's standard library
 * (1.78 on) takes its random bytes from ProcessPrng there, and a program
 * that imports a function Wine cannot find does not start. The end-to-end
 * tests build this beside obi.exe in Wine; it is never shipped, and Windows
 * has its own. RtlGenRandom is advapi32's SystemFunction036. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
