/**
 * Public error literals from Python, pip and Python libraries, each with
 * the address of the thread it was posted in.
 */
import type { PublicCase } from './public-case.ts';

export const PYTHON_CASES: PublicCase[] = [
  {
    id: 'pub2-pip-exe-no-module-pip-windows',
    source: 'https://github.com/instabot-py/instabot.py/issues/1199',
    ecosystem: 'python',
    product: 'pip',
    title: 'pip.exe on Windows cannot import pip',
    literal:
      'C:\\Windows\\system32>pip\nTraceback (most recent call last):\n  File "c:\\lib\\runpy.py", line 193, in _run_module_as_main\n    "__main__", mod_spec)\n  File "C:\\Python27\\Scripts\\pip.exe\\__main__.py", line 5, in <module>\nModuleNotFoundError: No module named \'pip\'',
    body: 'The pip launcher on PATH belongs to another interpreter than the one whose site-packages it looks in.',
    solution: 'Repair pip for that interpreter with python -m ensurepip --upgrade, and call it as python -m pip.',
    symptom: 'running pip on windows says pip module missing',
  },
  {
    id: 'pub2-pipenv-no-module-pipfile',
    source: 'https://github.com/pypa/pipenv/issues/6',
    ecosystem: 'python',
    product: 'pipenv',
    title: 'pipenv 0.1.3 release is missing its _pipfile package',
    literal:
      'File "/usr/local/lib/python2.7/dist-packages/pipenv/core.py", line 11, in <module>\n    import _pipfile as pipfile\nImportError: No module named _pipfile',
    body: 'The published sdist left out the vendored _pipfile directory.',
    solution: 'Upgrade to the next pipenv release, which ships the package.',
    symptom: 'pipenv import fails right after pip install, pipfile module missing',
  },
  {
    id: 'pub2-pip-build-deps-no-module-pip',
    source: 'https://github.com/pypa/pip/issues/5291',
    ecosystem: 'python',
    product: 'pip',
    title: 'PEP 518 build isolation runs a Python without pip',
    literal:
      '  Installing build dependencies ... error\n  Complete output from command /usr/bin/python -m pip install --ignore-installed --no-user --prefix /tmp/pip-build-env-shNeew\n  /usr/bin/python: No module named pip',
    body: 'pip 10 installs build dependencies with the system interpreter, where pip lives only in the user site, which the isolated run ignores.',
    solution: 'Install pip for the interpreter system-wide (or in a venv), or pass --no-build-isolation.',
    symptom: 'pip install . fails installing build dependencies because python has no pip',
  },
  {
    id: 'pub2-setup-py-pip-req-removed',
    source: 'https://github.com/DRL/kinfin/issues/40',
    ecosystem: 'python',
    product: 'pip',
    title: 'setup.py imports pip.req, which pip 10 removed',
    literal:
      'File "setup.py", line 4, in <module>\n    from pip.req import parse_requirements\nModuleNotFoundError: No module named \'pip.req\'',
    body: 'pip internals moved to pip._internal in pip 10; setup scripts that import them break.',
    solution: 'Read requirements.txt in setup.py yourself instead of importing pip internals.',
    symptom: 'installing package fails setup.py imports parse_requirements from pip',
  },
  {
    id: 'pub2-pip-distutils-python313',
    source: 'https://github.com/openfootmanager/openfootmanager/issues/89',
    ecosystem: 'python',
    product: 'pip',
    title: 'Old pip on Python 3.13 imports distutils, which is gone',
    literal:
      'File "C:\\Python313\\Lib\\site-packages\\pip\\_internal\\cli\\cmdoptions.py", line 19, in <module>\n    from distutils.util import strtobool\nModuleNotFoundError: No module named \'distutils\'',
    body: 'distutils was removed in Python 3.12; a pip copied from an older install still imports it.',
    solution: 'Reinstall pip for the new interpreter: python -m ensurepip --upgrade (or get-pip.py).',
    symptom: 'every pip install fails on python 3.13 distutils missing',
  },
  {
    id: 'pub2-mim-no-module-pip',
    source: 'https://github.com/open-mmlab/mim-example/issues/9',
    ecosystem: 'python',
    product: 'openmim',
    title: 'mim install fails: the environment has no pip module',
    literal: "ModuleNotFoundError: No module named 'pip'",
    body: 'mim shells out to python -m pip; the conda environment was created without pip.',
    solution: 'conda install pip (or python -m ensurepip) in the environment, then rerun mim install.',
    symptom: 'openmmlab mim install says pip is not installed in env',
  },
];

/** pip resolution failures: one template, told apart by the requirement it names. */
export const PIP_NO_DISTRIBUTION_CASES: PublicCase[] = [
  {
    id: 'pub2-pip-no-dist-project-module',
    source: 'https://github.com/facebookresearch/consistent_depth/issues/63',
    ecosystem: 'python',
    product: 'pip',
    title: 'pip install project: the import name is a local package, not on PyPI',
    literal:
      'ERROR: Could not find a version that satisfies the requirement project (from versions: none)\nERROR: No matching distribution found for project',
    body: '"import project" refers to a module inside the repository; there is no PyPI distribution called project.',
    solution: 'Run from the repository root (or add it to PYTHONPATH) instead of pip installing the import name.',
    symptom: 'pip cannot install module named project consistent depth',
  },
  {
    id: 'pub2-pip8-no-dist-install-word',
    source: 'https://github.com/pypa/pip/issues/3811',
    ecosystem: 'python',
    product: 'pip',
    title: 'pip tries to install a package called "install"',
    literal:
      'Collecting install\n  Could not find a version that satisfies the requirement install (from versions: ) No matching distribution found for install',
    body: 'The command line had pip install install (or the word twice), so pip looks for a distribution named install.',
    solution: 'Run python -m pip install scikit-learn with the word install once.',
    symptom: 'pip collecting install no matching distribution windows python 2.7',
  },
  {
    id: 'pub2-pip-no-dist-googlesearch-pin',
    source: 'https://github.com/SKRohit/Generating_Text_Summary_With_GPT2/issues/7',
    ecosystem: 'python',
    product: 'pip',
    title: 'requirements pin googlesearch-python==2020.0.2, which PyPI no longer has',
    literal:
      'ERROR: Could not find a version that satisfies the requirement googlesearch-python==2020.0.2 (from versions: 1.0.0, 1.0.1, 1.1.0)\nERROR: No matching distribution found for googlesearch-python==2020.0.2',
    body: 'The pinned version was removed from the index; only 1.x releases remain.',
    solution: 'Pin an existing version of googlesearch-python (the latest 1.x).',
    symptom: 'googlesearch python 2020 version not available pip requirements',
  },
  {
    id: 'pub2-pip-no-dist-python-requirement',
    source: 'https://github.com/imsatoshi/GeneTrader/issues/3',
    ecosystem: 'python',
    product: 'pip',
    title: 'requirements.txt lists python>=3.7 as if it were a package',
    literal:
      'ERROR: Could not find a version that satisfies the requirement python>=3.7 (from versions: none)\nERROR: No matching distribution found for python>=3.7',
    body: 'python is not a distribution on PyPI; the interpreter version belongs in python_requires, not requirements.txt.',
    solution: 'Remove the python line from requirements.txt.',
    symptom: 'pip install requirements fails on python>=3.7 line',
  },
  {
    id: 'pub2-pip-no-dist-array-record-hashes',
    source: 'https://github.com/google-deepmind/alphageometry/issues/62',
    ecosystem: 'python',
    product: 'pip',
    title: 'alphageometry requirements: array-record 0.4.1 has no wheel for this platform',
    literal:
      'ERROR: Could not find a version that satisfies the requirement array-record==0.4.1 (from -r requirements.txt (line 28)) (from versions: none)\nERROR: No matching distribution found for array-record==0.4.1 (from -r requirements.txt (line 28))',
    body: 'array-record publishes Linux wheels for a few Python versions only; on other platforms pip sees none.',
    solution: 'Use a supported Python version on Linux (or a container) for the pinned requirements.',
    symptom: 'array-record wheel not found pip require hashes alphageometry',
  },
  {
    id: 'pub2-pip18-aiohttp-old-python',
    source: 'https://github.com/pypa/packaging-problems/issues/177',
    ecosystem: 'python',
    product: 'pip',
    title: 'pip on Python 3.5 cannot install aiohttp 3.3.2',
    literal:
      'Collecting aiohttp==3.3.2\n  Could not find a version that satisfies the requirement aiohttp==3.3.2 (from versions: 0.1, 0.2, 0.3, 0.4, 0.4.1, 0.4.2, 0.4.3',
    body: 'aiohttp 3.x declares python_requires >= 3.5.3; the virtualenv runs 3.5.2, so pip hides those releases.',
    solution: 'Use a newer Python (3.5.3+, better a supported version) for the virtualenv.',
    symptom: 'pip installs old aiohttp 2 on python 3.5 newer versions missing',
  },
  {
    id: 'pub2-pip-no-dist-numpy-mirror',
    source: 'https://github.com/Maicius/QQZoneMood/issues/51',
    ecosystem: 'python',
    product: 'pip',
    title: 'pip3 -r requirements.txt: no distribution for numpy from the configured mirror',
    literal: 'No matching distribution found for numpy',
    body: 'The pip index mirror configured on the machine is broken or incomplete.',
    solution:
      'Use the official index or a working mirror: pip install -i https://pypi.tuna.tsinghua.edu.cn/simple -r requirements.txt',
    symptom: 'pip mirror cannot find numpy distribution',
  },
  {
    id: 'pub2-pip-no-dist-numpy2-py38',
    source: 'https://github.com/LordLiang/DrawingSpinUp/issues/10',
    ecosystem: 'python',
    product: 'pip',
    title: 'numpy~=2.0 required by a pinned dependency is not available for this Python',
    literal: 'ERROR: No matching distribution found for numpy~=2.0',
    body: 'A pinned pymcubes release requires numpy 2, which has no build for the Python version in use.',
    solution: 'Pin pymcubes==0.1.4, which accepts numpy 1.x.',
    symptom: 'requirements numpy 2.0 no matching distribution pymcubes',
  },
  {
    id: 'pub2-pip-no-dist-pygcl-py37',
    source: 'https://github.com/PyGCL/PyGCL/issues/45',
    ecosystem: 'python',
    product: 'pip',
    title: 'pip install PyGCL on Python 3.7 finds no version',
    literal:
      'ERROR:could not find a version that satisfies the requirement PyGCL\nERROR:No matching distribution found for PyGCL',
    body: 'PyGCL requires a newer Python than 3.7, so pip filters out every release.',
    solution: 'Install it in an environment with a supported Python version.',
    symptom: 'pip install pygcl python 3.7 not found',
  },
  {
    id: 'pub2-pip-no-dist-monet-old',
    source: 'https://github.com/noaa-oar-arl/monet/issues/3',
    ecosystem: 'python',
    product: 'pip',
    title: 'pip install MONET: not published under that name',
    literal:
      'Could not find a version that satisfies the requirement MONET (from versions: )\nNo matching distribution found for MONET',
    body: 'The package was not on PyPI under that name when the user tried; it had to be installed from the repository or conda.',
    solution:
      'Install from the git repository (pip install git+https://...) or the conda channel the project documents.',
    symptom: 'pip cannot find monet package linux',
  },
];

/** libGL missing on headless Linux, reached through different libraries. */
export const LIBGL_CASES: PublicCase[] = [
  {
    id: 'pub2-libgl-pymol-cmd',
    source: 'https://github.com/schrodinger/pymol-open-source/issues/232',
    ecosystem: 'python',
    product: 'pymol',
    title: 'import pymol fails on a server without OpenGL libraries',
    literal:
      'File "pymol/__init__.py", line 614, in <module>\n    import pymol._cmd\nImportError: libGL.so.1: cannot open shared object file: No such file or directory',
    body: 'The compiled pymol._cmd extension links against libGL, which a minimal Linux install lacks.',
    solution: 'sudo apt install libgl1 (libgl1-mesa-glx on older releases).',
    symptom: 'import pymol cmd libgl missing linux',
  },
  {
    id: 'pub2-libgl-cv2-old-import',
    source: 'https://github.com/amdegroot/ssd.pytorch/issues/525',
    ecosystem: 'python',
    product: 'opencv-python',
    title: 'import cv2 in a training container: libGL.so.1 missing',
    literal:
      'File "/opt/conda/lib/python3.6/site-packages/cv2/__init__.py", line 5, in <module>\n    from .cv2 import *\nImportError: libGL.so.1: cannot open shared object file: No such file or directory',
    body: 'opencv-python (the GUI build) needs libGL; the conda container does not have it.',
    solution: 'apt install -y libgl1-mesa-glx, or pip install opencv-python-headless instead.',
    symptom: 'cv2 import fails in docker container libgl so',
  },
  {
    id: 'pub2-libgl-cv2-bootstrap',
    source: 'https://github.com/yeates/PromptFix/issues/13',
    ecosystem: 'python',
    product: 'opencv-python',
    title: 'OpenCV 4.x bootstrap cannot load its native module: libGL.so.1',
    literal:
      'File "/opt/conda/envs/promptfix/lib/python3.10/site-packages/cv2/__init__.py", line 153, in bootstrap\n    native_module = importlib.import_module("cv2")\n  File "/opt/conda/envs/promptfix/lib/python3.10/importlib/__init__.py", line 126, in import_module\n    return _bootstrap._gcd_import(name[level:], package, level)\nImportError: libGL.so.1: cannot open shared object file: No such file or directory',
    body: 'The opencv-python wheel loads a native module linked to libGL and libglib.',
    solution: 'apt-get install -y libgl1 libglib2.0-0 (or use opencv-python-headless).',
    symptom: 'opencv bootstrap native module import libgl error',
  },
  {
    id: 'pub2-libgl-pyqt5-qtgui',
    source: 'https://github.com/bowang-lab/MedSAM/issues/180',
    ecosystem: 'python',
    product: 'pyqt5',
    title: 'PyQt5 GUI import needs libGL even with opencv-headless installed',
    literal:
      'File "/usr/data/MedSAM/gui.py", line 4, in <module>\n    from PyQt5.QtGui import (\nImportError: libGL.so.1: cannot open shared object file: No such file or directory.',
    body: 'Here it is PyQt5.QtGui, not OpenCV, that needs libGL; the headless OpenCV does not help.',
    solution: 'Install the system OpenGL library (apt install libgl1) or run the GUI on a desktop machine.',
    symptom: 'pyqt5 qtgui import libgl even with opencv headless',
  },
  {
    id: 'pub2-libgl-open3d-oserror',
    source: 'https://github.com/open-mmlab/OpenPCDet/issues/929',
    ecosystem: 'python',
    product: 'open3d',
    title: 'import open3d: OSError libGL.so.1 from ctypes',
    literal:
      'File "/usr/lib/python3.7/ctypes/__init__.py", line 364, in __init__\n    self._handle = _dlopen(self._name, mode)\nOSError: libGL.so.1: cannot open shared object file: No such file or directory',
    body: 'open3d loads its pybind library with ctypes; it links to libGL, absent in the container.',
    solution: 'apt-get install libgl1-mesa-glx (libgl1 on newer Ubuntu).',
    symptom: 'open3d import oserror libgl ctypes dlopen',
  },
];

export const PYTHON_UNICODE_CASES: PublicCase[] = [
  {
    id: 'pub2-unicodedecode-utf8-0x80',
    source: 'https://github.com/Star-chy/ABD/issues/21',
    ecosystem: 'python',
    product: 'python',
    title: 'Reading a binary or non-UTF-8 file as UTF-8 text: invalid start byte',
    literal: "UnicodeDecodeError: 'utf-8' codec can't decode byte 0x80 in position 64: invalid start byte",
    body: 'A file opened in text mode is not UTF-8 (a pickle, an image, or a GBK/cp1252 text file).',
    solution: 'Open binary files with "rb"; for text, pass the real encoding to open().',
    symptom: 'python utf-8 codec cant decode byte invalid start byte reading file',
  },
  {
    id: 'pub2-unicodedecode-py2-utf8-weixin',
    source: 'https://github.com/Urinx/WeixinBot/issues/29',
    ecosystem: 'python',
    product: 'python2',
    title: "Python 2 bot: 'utf8' codec can't decode byte (implicit str/unicode mixing)",
    literal: "UnicodeDecodeError: 'utf8' codec can't decode byte 0x85 in position 39: invalid start byte",
    body: 'Python 2 mixes byte strings in the console encoding with unicode, decoding them implicitly as UTF-8.',
    solution: 'Decode input explicitly with its real encoding (or move to Python 3).',
    symptom: 'python 2 utf8 codec decode byte wechat bot',
  },
  {
    id: 'pub2-unicodedecode-rapidscan-temp-file',
    source: 'https://github.com/skavngr/rapidscan/issues/54',
    ecosystem: 'python',
    product: 'rapidscan',
    title: 'rapidscan reads tool output with the default encoding and fails',
    literal:
      "rs_tool_output_file = open(temp_file).read()\n                          ^^^^^^^^^^^^^^^^^^^^^^\n  File \"<frozen codecs>\", line 322, in decode\nUnicodeDecodeError: 'utf-8' codec can't decode byte 0x99 in position 404: invalid start byte",
    body: 'A scanner wrote non-UTF-8 bytes into the temporary output file.',
    solution: "Open the file with errors='replace' (or the tool's encoding).",
    symptom: 'rapidscan temp file read unicode decode error',
  },
  {
    id: 'pub2-unicodedecode-zds-gallery',
    source: 'https://github.com/zestedesavoir/zds-site/issues/4410',
    ecosystem: 'python',
    product: 'django',
    title: 'Gallery image import: utf8 decode error while formatting an error message',
    literal:
      "File \"zds/gallery/views.py\", line 462, in form_valid\n    title, settings.ZDS_APP['gallery']['image_max_size'] / 1024))\n\nUnicodeDecodeError: 'utf8' codec can't decode byte 0x82 in position 9: invalid start byte",
    body: 'A byte-string file name from an uploaded archive is interpolated into a unicode message under Python 2.',
    solution: 'Decode archive member names with the archive encoding before using them.',
    symptom: 'zeste de savoir gallery import archive unicode decode',
  },
];

/** PEP 668 refusals as distributions and build tools print them. */
export const EXTERNALLY_MANAGED_CASES: PublicCase[] = [
  {
    id: 'pub2-pep668-raspberry-pi-rptl',
    source: 'https://github.com/sixfab/Sixfab_PPP_Installer/issues/41',
    ecosystem: 'python',
    product: 'pip',
    title: 'Raspberry Pi OS Bookworm: installer pip install refused (rptl.io/venv)',
    literal:
      'error: externally-managed-environment\n\n× This environment is externally managed\n╰─> To install Python packages system-wide, try apt install\n    python3-xyz, where xyz is the package you are trying to\n    install.\n\n    For more information visit http://rptl.io/venv',
    body: 'The installer runs sudo pip3 install on a release that marks the system Python as externally managed.',
    solution: 'Install the package in a venv (python3 -m venv) and call it from there, or use the apt package.',
    symptom: 'raspberry pi bookworm pip install externally managed rptl',
  },
  {
    id: 'pub2-pep668-arch-pacman',
    source: 'https://github.com/pypa/pipx/issues/1653',
    ecosystem: 'python',
    product: 'pip',
    title: 'Arch Linux: pip install pipx refused, use pacman -S python-xyz',
    literal:
      "error: externally-managed-environment\n\n× This environment is externally managed\n╰─> To install Python packages system-wide, try 'pacman -S\n    python-xyz', where xyz is the package you are trying to\n    install.",
    body: 'Arch marks its system Python as externally managed; pipx itself is packaged as python-pipx.',
    solution: 'pacman -S python-pipx, then pipx install the applications.',
    symptom: 'arch linux pip install pipx externally managed pacman',
  },
  {
    id: 'pub2-pep668-buildkit-requirements',
    source: 'https://github.com/Vozec/CTFlagger/issues/1',
    ecosystem: 'docker',
    product: 'pip',
    title: 'docker build: RUN pip install -r requirements.txt refused by PEP 668',
    literal:
      '> [web 5/8] RUN     python -m pip install -r requirements.txt ;:\n3.026 error: externally-managed-environment\n3.026\n3.026 × This environment is externally managed',
    body: 'The base image moved to a Debian/Ubuntu release whose system Python is externally managed.',
    solution:
      'Create a venv in the Dockerfile (or use a python: base image), or pass --break-system-packages deliberately.',
    symptom: 'dockerfile pip install requirements externally managed environment buildkit',
  },
];

/** Address already in use, told apart by the server library in the traceback. */
export const PYTHON_BIND_CASES: PublicCase[] = [
  {
    id: 'pub2-errno98-socketserver-werkzeug1',
    source: 'https://github.com/estruyf/unicorn-busy-server/issues/11',
    ecosystem: 'python',
    product: 'flask',
    title: 'Flask dev server on a Raspberry Pi: port 5000 already in use',
    literal:
      'File "/usr/lib/python3.7/socketserver.py", line 466, in server_bind\n    self.socket.bind(self.server_address)\nOSError: [Errno 98] Address already in use',
    body: 'A previous instance (started by a service at boot) still listens on the port.',
    solution: 'Stop the other instance (sudo lsof -i :5000) or run on another port.',
    symptom: 'flask server py raspberry pi address already in use',
  },
  {
    id: 'pub2-errno98-werkzeug2-s-bind',
    source: 'https://github.com/DarkflameUniverse/AccountManager/issues/12',
    ecosystem: 'python',
    product: 'flask',
    title: 'Flask app on WSL1: port forwarding rules hold the port',
    literal:
      'File "/usr/local/lib/python3.8/dist-packages/werkzeug/serving.py", line 982, in run_simple\n    s.bind(server_address)\nOSError: [Errno 98] Address already in use',
    body: 'Under WSL1 the app shares the Windows host network, where netsh portproxy rules from a WSL2 guide listen on the port.',
    solution: 'netsh interface portproxy reset in an elevated PowerShell.',
    symptom: 'wsl1 flask address already in use netsh portproxy',
  },
  {
    id: 'pub2-errno98-german-adresse-verwendet',
    source: 'https://github.com/pyload/pyload/pull/3820',
    ecosystem: 'python',
    product: 'pyload',
    title: 'pyLoad web UI restart: address still in use (German locale)',
    literal: 'self.socket.bind(self.server_address)\nOSError: [Errno 98] Die Adresse wird bereits verwendet',
    body: 'On restart the new web server binds before the old one released the socket.',
    solution: 'Shut the old server down before restarting (fixed in the PR), or set SO_REUSEADDR.',
    symptom: 'pyload restart webserver adresse wird bereits verwendet',
  },
  {
    id: 'pub2-errno98-python2-socket-error',
    source: 'https://github.com/BrainPad/FindYourCandy/issues/9',
    ecosystem: 'python',
    product: 'flask',
    title: 'Python 2 Flask run.py: socket.error Errno 98',
    literal:
      'File "/usr/lib/python2.7/socket.py", line 228, in meth\n    return getattr(self._sock,name)(*args)\nsocket.error: [Errno 98] Address already in use',
    body: 'Another process (often a previous run) holds the port given to run.py.',
    solution: 'Find it with sudo netstat -tlnp and stop it, or pass another --port.',
    symptom: 'python2 socket error errno 98 run py',
  },
  {
    id: 'pub2-errno98-waitress-bind',
    source: 'https://github.com/fabston/TradingView-Webhook-Bot/issues/91',
    ecosystem: 'python',
    product: 'waitress',
    title: 'TradingView webhook bot: waitress cannot bind port 80',
    literal:
      'File "/root/TradingView-Webhook-Bot/TradingView-Webhook-Bot/lib64/python3.6/site-packages/waitress/wasyncore.py", line 396, in bind\n    return self.socket.bind(addr)\nOSError: [Errno 98] Address already in use',
    body: 'A web server (nginx or Apache) already listens on port 80 on the VPS.',
    solution: 'Run the bot on another port behind that web server, or stop the other server.',
    symptom: 'waitress serve port 80 address already in use vps',
  },
];

/** pip network timeouts, told apart by the host (index, files CDN, upload). */
export const PIP_TIMEOUT_CASES: PublicCase[] = [
  {
    id: 'pub2-pip-readtimeout-files-pythonhosted',
    source: 'https://github.com/HuangCongQing/Python/issues/6',
    ecosystem: 'python',
    product: 'pip',
    title: 'pip download from files.pythonhosted.org times out',
    literal:
      "raise ReadTimeoutError(self._pool, None, 'Read timed out.')\npip._vendor.urllib3.exceptions.ReadTimeoutError: HTTPSConnectionPool(host='files.pythonhosted.org', port=443): Read timed out.",
    body: 'A slow or lossy connection to the PyPI file CDN stalls a large wheel download past the 15 s timeout.',
    solution: 'pip install --default-timeout=100, or use a closer mirror (-i).',
    symptom: 'pip install large wheel read timed out files pythonhosted',
  },
  {
    id: 'pub2-pip-retrying-readtimeout-pypi-simple',
    source: 'https://github.com/pypa/pip/issues/9489',
    ecosystem: 'python',
    product: 'pip',
    title: 'Every pip install retries: ReadTimeoutError reaching pypi.org/simple',
    literal:
      "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError(\"HTTPSConnectionPool(host='pypi.org', port=443): Read timed out. (read timeout=15)\")': /simple/flask/",
    body: 'The network (a broken IPv6 route or a proxy) stalls connections to the index.',
    solution: 'Fix the network path (prefer IPv4, set the proxy) or use a mirror index.',
    symptom: 'pip retrying read timed out pypi simple every package',
  },
  {
    id: 'pub2-twine-upload-pypi-read-timeout',
    source: 'https://github.com/pypi/support/issues/2831',
    ecosystem: 'python',
    product: 'twine',
    title: 'Uploading a package: upload.pypi.org read timed out',
    literal: "HTTPSConnectionPool(host='upload.pypi.org', port=443): Read timed out. (read timeout=15)",
    body: 'A large distribution upload takes longer than the client read timeout.',
    solution: 'Retry the upload (twine upload --skip-existing), from a faster connection.',
    symptom: 'twine upload pypi read timeout large package',
  },
];
