; Reverse a tower of three blocks.
(define (problem reverse-three)
  (:domain blocksworld)
  (:objects a b c - block)
  (:init
    (on a b)
    (on b c)
    (ontable c)
    (clear a)
    (arm-empty))
  (:goal (and (on c b) (on b a))))
