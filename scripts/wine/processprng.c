/*
 * A stand-in bcryptprimitives.dll for the Wine smoke test prefix only;
 * never shipped. Go 1.22 and later read random bytes at start through
 * ProcessPrng in bcryptprimitives.dll (Windows 10 and later have it),
 * which Debian 12's Wine 8.0 lacks, so a Go .exe dies at once. This DLL
 * exports ProcessPrng by calling BCryptGenRandom, which Wine has.
 */
#include <windows.h>
#include <bcrypt.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	/* BCryptGenRandom takes a ULONG count. */
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!BCRYPT_SUCCESS(BCryptGenRandom(NULL, data, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG)))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
