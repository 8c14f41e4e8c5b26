// The timed region of a measurement, out of Python's reach (eval/clock.py builds and loads it).
//
// time_call(fn) -> (elapsed_ns, output, exact): synchronize, read the clock, call fn(),
// synchronize, read the clock. The clock is the C++ steady clock and the synchronize the
// device's own (bound once, by bind(), before any submission is imported), so rebinding
// Python names cannot change a measurement. `exact` says whether fn returned a plain
// torch.Tensor, decided before the clock stops: a subclass that defers its work to the first
// time the harness touches the output is caught here.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <chrono>

namespace {

PyObject* synchronize = nullptr;  // torch._C._cuda_synchronize, or None on the CPU
PyObject* tensor_type = nullptr;  // torch.Tensor

long long now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool sync() {
  if (synchronize == Py_None) return true;
  PyObject* result = PyObject_CallNoArgs(synchronize);
  Py_XDECREF(result);
  return result != nullptr;
}

PyObject* bind(PyObject*, PyObject* args) {
  PyObject *sync_fn, *tensor;
  if (!PyArg_ParseTuple(args, "OO", &sync_fn, &tensor)) return nullptr;
  if (synchronize != nullptr) {
    PyErr_SetString(PyExc_RuntimeError, "the clock is bound once, before any submission is imported");
    return nullptr;
  }
  if (!PyType_Check(tensor) || (sync_fn != Py_None && !PyCallable_Check(sync_fn))) {
    PyErr_SetString(PyExc_TypeError, "bind(synchronize or None, torch.Tensor)");
    return nullptr;
  }
  Py_INCREF(sync_fn);
  Py_INCREF(tensor);
  synchronize = sync_fn;
  tensor_type = tensor;
  Py_RETURN_NONE;
}

PyObject* time_call(PyObject*, PyObject* fn) {
  if (synchronize == nullptr) {
    PyErr_SetString(PyExc_RuntimeError, "the clock is not bound");
    return nullptr;
  }
  if (!sync()) return nullptr;
  const long long start = now_ns();
  PyObject* output = PyObject_CallNoArgs(fn);
  if (output == nullptr) return nullptr;
  const bool exact = reinterpret_cast<PyObject*>(Py_TYPE(output)) == tensor_type;
  if (!sync()) {
    Py_DECREF(output);
    return nullptr;
  }
  const long long elapsed = now_ns() - start;
  return Py_BuildValue("(LNO)", elapsed, output, exact ? Py_True : Py_False);
}

PyObject* read_ns(PyObject*, PyObject*) { return PyLong_FromLongLong(now_ns()); }

PyMethodDef methods[] = {
    {"bind", bind, METH_VARARGS, "bind(synchronize or None, torch.Tensor): once, before a submission is imported"},
    {"time_call", time_call, METH_O, "time_call(fn) -> (elapsed_ns, output, output is a plain torch.Tensor)"},
    {"read_ns", read_ns, METH_NOARGS, "the clock time_call reads, in ns"},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef module = {PyModuleDef_HEAD_INIT, "harness_clock", "the harness's timed region", -1, methods};

}  // namespace

PyMODINIT_FUNC PyInit_harness_clock() { return PyModule_Create(&module); }
