"""Only what pyproject.toml cannot say: the cffi extension ``gaddag_solver._core``.

cffi's setuptools hook (``cffi_modules``) runs pycore/gaddag_solver/_ffi_build.py, which
compiles every csrc/*.c file into the extension (API mode, out-of-line).
"""

from setuptools import setup

setup(cffi_modules=["pycore/gaddag_solver/_ffi_build.py:ffibuilder"])
