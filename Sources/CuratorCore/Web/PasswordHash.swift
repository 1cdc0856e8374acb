// SPDX-License-Identifier: GPL-2.0-or-later
import CSodium
import CuratorProtocol

/// Web passwords as libsodium's Argon2id strings (`$argon2id$v=19$m=...`), which carry
/// their own salt and costs: a hash made with today's costs still verifies after a
/// library update raises them.
enum PasswordHash {
    /// At most this many bytes; a longer one is refused rather than hashed (the hash
    /// would take it, but a login line has a size limit too).
    static let maxBytes = 1024

    /// libsodium must be initialised once before use (it picks its CPU routines and
    /// opens the random device); harmless to call again.
    static func prepare() -> Bool { sodium_init() >= 0 }

    static func make(_ password: String) throws(ProtocolError) -> String {
        guard prepare() else { throw ProtocolError(.internalError, "libsodium could not be initialised") }
        var out = [CChar](repeating: 0, count: Int(crypto_pwhash_strbytes()))
        // A terminating zero keeps the buffer's address valid for an empty password;
        // the length given leaves it out (a password may hold a NUL of its own).
        let bytes = Array(password.utf8).map { CChar(bitPattern: $0) } + [0]
        let rc = bytes.withUnsafeBufferPointer { chars -> Int32 in
            guard let base = chars.baseAddress else { return -1 }
            return crypto_pwhash_str_alg(&out, base, UInt64(chars.count - 1), UInt64(crypto_pwhash_opslimit_interactive()),
                                  crypto_pwhash_memlimit_interactive(), crypto_pwhash_alg_argon2id13())
        }
        guard rc == 0 else { throw ProtocolError(.internalError, "the password could not be hashed (out of memory?)") }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func verify(_ hash: String, _ password: String) -> Bool {
        guard prepare() else { return false }
        let bytes = Array(password.utf8).map { CChar(bitPattern: $0) } + [0]
        return hash.withCString { stored in
            bytes.withUnsafeBufferPointer { chars in
                guard let base = chars.baseAddress else { return false }
                return crypto_pwhash_str_verify(stored, base, UInt64(chars.count - 1)) == 0
            }
        }
    }

    /// What an unknown user's password is checked against, so that a login for a name
    /// without a web password takes as long as one with a wrong password.
    static let dummy: String = (try? make("curatord: no such web user")) ?? ""
}
